package dev.sluice.mcp.internal;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.sluice.core.Sluice;
import dev.sluice.core.engine.Outcome;
import dev.sluice.core.engine.QueuedRequest;
import dev.sluice.core.escalation.Escalation;
import dev.sluice.core.journal.ActionRecord;
import dev.sluice.core.journal.ActionState;
import dev.sluice.core.policy.Credential;
import dev.sluice.core.scope.ScopeRecord;
import dev.sluice.gateway.ScopeJson;
import dev.sluice.mcp.McpSettings;
import io.modelcontextprotocol.spec.McpSchema;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Builds the structured results of the action tools ({@code http_request}, {@code action_status})
 * in the shape of {@code action.output.json}, and wraps any structured result into an MCP result
 * whose text is the model-oriented summary followed by the same JSON (for clients that show only
 * text).
 */
public final class ResultMaps {
  private static final ObjectMapper JSON = new ObjectMapper().disable(SerializationFeature.FAIL_ON_EMPTY_BEANS);

  private final Sluice sluice;
  private final McpSettings settings;

  public ResultMaps(Sluice sluice, McpSettings settings) {
    this.sluice = sluice;
    this.settings = settings;
  }

  static String time(Instant i) {
    return ScopeJson.rfc3339(i);
  }

  /** A result with this structured content and text; {@code isError} marks a terminal failure or refusal. */
  public static McpSchema.CallToolResult result(Map<String, Object> structured, String text, boolean isError) {
    String json;
    try {
      json = JSON.writeValueAsString(structured);
    } catch (JsonProcessingException e) {
      json = "{}";
    }
    return McpSchema.CallToolResult.builder().addTextContent(text + "\n\n" + json).structuredContent(structured).isError(isError).build();
  }

  /** Every member of the action shape, empty. */
  static Map<String, Object> blank() {
    Map<String, Object> m = new LinkedHashMap<>();
    for (String k : List.of("state", "phase", "outcome", "action_id", "task", "goal", "provider", "method", "path", "response", "request_sent",
        "response_received")) {
      m.put(k, null);
    }
    m.put("attempts", 0);
    m.put("waited_seconds", 0.0);
    for (String k : List.of("last_status")) {
      m.put(k, null);
    }
    m.put("reconciled", false);
    for (String k : List.of("idempotency_key", "next_allowed_at", "due_at", "reason")) {
      m.put(k, null);
    }
    m.put("next_safe_action", "");
    m.put("circuit_fingerprint", null);
    m.put("escalation_id", null);
    m.put("scope", null);
    return m;
  }

  /** A refusal before anything was queued or sent. */
  public static McpSchema.CallToolResult refused(ToolRefusal r, Optional<String> provider, Optional<String> method, Optional<String> path, Optional<String> task) {
    Map<String, Object> m = blank();
    m.put("state", McpStates.DONE);
    m.put("outcome", "refused");
    m.put("task", task.orElse(null));
    m.put("provider", provider.orElse(null));
    m.put("method", method.orElse(null));
    m.put("path", path.orElse(null));
    m.put("request_sent", false);
    m.put("response_received", false);
    m.put("reason", r.code() + ": " + r.getMessage());
    m.put("next_safe_action", "fix the call as the reason says; nothing was sent, and repeating it unchanged cannot succeed");
    return result(m, ModelText.refused(r.code(), r.getMessage()), true);
  }

  /**
   * The Sluice process that carried a call stopped before answering it (a shared stdio server's
   * hub went away). The call may have been sent; its action, if journaled, is resumed by the next
   * process on the data_dir. The model is told not to resend it.
   */
  public static McpSchema.CallToolResult interrupted(String why) {
    Map<String, Object> m = blank();
    m.put("state", McpStates.DONE);
    m.put("outcome", "interrupted");
    m.put("request_sent", true); // not known: assume the worst for a write
    m.put("response_received", false);
    m.put("reason", "interrupted: " + why);
    m.put("next_safe_action", "do not resend this call: if it was a write it may have happened, and Sluice's journal resumes it; check the"
        + " provider, or repeat a read");
    return result(m, "The Sluice process carrying this call stopped before it answered (" + why + "). It may have been sent. Do not rephrase"
        + " and resend a write: it may already have happened, and Sluice resumes it from its journal. A read can be repeated.", true);
  }

  /** The final result of an action. */
  public McpSchema.CallToolResult done(ActionBook.Entry e, Outcome o) {
    Map<String, Object> m = identity(e);
    Optional<ActionRecord> record = e.journalId().flatMap(sluice::action);
    // A success needs no person; anything else may have been handed to one (the engine names it in the reason too).
    Optional<Escalation> escalation = o.succeeded() ? Optional.empty() : McpStates.escalation(sluice, e.journalId());
    m.put("state", McpStates.forOutcome(o.outcome()));
    m.put("outcome", o.outcome().code());
    Optional<String> credential = sluice.policy().provider(e.provider()).flatMap(p -> p.credential()).map(Credential::header);
    m.put("response", o.response().map(r -> (Object) ResponseView.of(r, settings.bodyCapBytes(), credential)).orElse(null));
    m.put("request_sent", o.requestSent());
    m.put("response_received", o.responseReceived());
    m.put("attempts", o.attempts());
    m.put("waited_seconds", Math.round(o.waitedSeconds() * 1000) / 1000.0);
    m.put("last_status", o.lastStatus().isPresent() ? o.lastStatus().getAsInt() : null);
    m.put("reconciled", o.reconciled());
    m.put("idempotency_key", record.flatMap(ActionRecord::idempotencyKey).orElse(null));
    m.put("next_allowed_at", o.nextAllowedAt().map(ResultMaps::time).orElse(null));
    m.put("reason", o.reason());
    m.put("next_safe_action", o.nextSafeAction());
    m.put("circuit_fingerprint", o.fingerprint().orElse(null));
    m.put("escalation_id", escalation.map(x -> x.id().toString()).orElse(null));
    Optional<ScopeRecord> scope = scope(e.provider());
    m.put("scope", scope.map(s -> (Object) ScopeJson.of(s)).orElse(null));
    String text = ModelText.done(o, e.provider(), e.method(), e.target(), scope.map(ScopeRecord::scope), escalation);
    return result(m, text, ModelText.error(o.outcome()));
  }

  /** An action not finished yet: {@code state: delayed} with its due time. */
  public McpSchema.CallToolResult pending(ActionBook.Entry e) {
    Map<String, Object> m = identity(e);
    Optional<ActionRecord> record = e.journalId().flatMap(sluice::action);
    Optional<ActionState> state = record.map(ActionRecord::state);
    String phase;
    Optional<Instant> due;
    if (record.isPresent()) {
      ActionRecord r = record.get();
      phase = r.state().code();
      due = r.state() == ActionState.QUEUED || r.state() == ActionState.DELAYED ? Optional.of(r.dueAt()) : Optional.empty();
      m.put("attempts", r.attemptsUsed());
      m.put("waited_seconds", Math.round(r.waited().toNanos() / 1e6) / 1000.0);
      m.put("last_status", r.lastStatus().isPresent() ? Integer.valueOf(r.lastStatus().getAsInt()) : lastStatus(e.journalId().get()));
      m.put("idempotency_key", r.idempotencyKey().orElse(null));
    } else {
      Optional<QueuedRequest> q = queued(e);
      phase = q.isPresent() ? "queued" : "in_flight";
      due = q.map(QueuedRequest::dueAt);
    }
    String mcpState = McpStates.forPending(state);
    m.put("state", mcpState);
    m.put("phase", phase);
    Optional<ScopeRecord> scope = scope(e.provider());
    // A queued call cannot leave before its scope's hold ends: that is when it may next leave, not its own earlier due time.
    Optional<Instant> hold = scope.flatMap(ScopeRecord::nextAllowedAt);
    due = due.map(d -> hold.filter(h -> h.isAfter(d)).orElse(d));
    m.put("next_allowed_at", scope.flatMap(ScopeRecord::nextAllowedAt).filter(t -> t.isAfter(settings.clock().instant())).map(ResultMaps::time)
        .orElse(null));
    m.put("due_at", due.map(ResultMaps::time).orElse(null));
    m.put("scope", scope.map(s -> (Object) ScopeJson.of(s)).orElse(null));
    if (mcpState.equals(McpStates.AWAITING_APPROVAL)) {
      Optional<String> escalation = McpStates.escalation(sluice, e.journalId()).map(x -> x.id().toString());
      m.put("escalation_id", escalation.orElse(null));
      m.put("reason", "approval_required: the route needs an operator's approval for each call; held, nothing sent"
          + escalation.map(x -> "; escalation " + x + " is waiting for an operator").orElse(""));
      m.put("next_safe_action", "do not send this call again and do not try another route to the same effect; you cannot approve it. Poll"
          + " action_status with action_id " + e.id() + " for the outcome once an operator approves or rejects it");
      return result(m, ModelText.awaitingApproval(e.id(), e.provider(), e.method(), e.target(), escalation), false);
    }
    m.put("escalation_id", McpStates.escalation(sluice, e.journalId()).filter(Escalation::open).map(x -> x.id().toString()).orElse(null));
    m.put("next_safe_action", "do not send this call again: it is still queued in Sluice; poll action_status with action_id " + e.id()
        + due.map(d -> " after " + time(d)).orElse("") + ", or cancel_task " + e.taskName());
    return result(m, ModelText.delayed(e.id(), e.provider(), e.taskName(), phase, due.map(ResultMaps::time)), false);
  }

  /** An action known only from the journal (started by an earlier run of this server, or by another surface). */
  public McpSchema.CallToolResult journalOnly(ActionRecord r) {
    Map<String, Object> m = blank();
    m.put("action_id", r.actionId().value());
    m.put("task", ModelText.taskName(r.taskId()));
    m.put("provider", r.scope().provider());
    m.put("method", r.method());
    m.put("path", r.target());
    m.put("attempts", r.attemptsUsed());
    m.put("waited_seconds", Math.round(r.waited().toNanos() / 1e6) / 1000.0);
    m.put("last_status", r.lastStatus().isPresent() ? r.lastStatus().getAsInt() : null);
    m.put("idempotency_key", r.idempotencyKey().orElse(null));
    m.put("reason", r.reason().orElse(null));
    Optional<String> escalation = McpStates.escalation(sluice, Optional.of(r.actionId())).map(x -> x.id().toString());
    m.put("escalation_id", escalation.orElse(null));
    m.put("scope", scope(r.scope().provider()).map(s -> (Object) ScopeJson.of(s)).orElse(null));
    if (r.outcome().isPresent() && !r.state().open()) {
      m.put("state", McpStates.forOutcome(r.outcome().get()));
      m.put("outcome", r.outcome().get().code());
      m.put("next_safe_action", "the provider's response is not kept across restarts; read the resource at the provider if you need it");
      String text = "Action " + r.actionId().value() + " finished earlier: " + r.outcome().get().code() + ". Reason: " + r.reason().orElse("none recorded")
          + escalation.map(x -> "\nEscalation " + x + " holds the operator's decision on it; do not rephrase and resend it.").orElse("")
          + (ModelText.error(r.outcome().get()) ? "\nDo not resend it blindly: check its effect at the provider first." : "");
      return result(m, text, ModelText.error(r.outcome().get()));
    }
    m.put("state", McpStates.forPending(Optional.of(r.state())));
    m.put("phase", r.state().code());
    if (r.state() == ActionState.AWAITING_APPROVAL) {
      m.put("next_safe_action", "do not send it again; you cannot approve it. Poll action_status for the outcome once an operator decides");
      return result(m, ModelText.awaitingApproval(r.actionId().value(), r.scope().provider(), r.method(), r.target(), escalation), false);
    }
    boolean waiting = r.state() == ActionState.QUEUED || r.state() == ActionState.DELAYED;
    m.put("due_at", waiting ? time(r.dueAt()) : null);
    m.put("next_safe_action", "do not send it again; poll action_status later");
    return result(m, ModelText.delayed(r.actionId().value(), r.scope().provider(), ModelText.taskName(r.taskId()), r.state().code(),
        waiting ? Optional.of(time(r.dueAt())) : Optional.empty()), false);
  }

  /** The status of the action's last answered attempt (the journal sets the action's own only at the end). */
  private Integer lastStatus(dev.sluice.core.journal.ActionId id) {
    Integer status = null;
    for (dev.sluice.core.journal.AttemptRecord a : sluice.attempts(id)) {
      if (a.end().isPresent() && a.end().get() instanceof dev.sluice.core.journal.AttemptEnd.Response r) {
        status = r.status();
      }
    }
    return status;
  }

  private Map<String, Object> identity(ActionBook.Entry e) {
    Map<String, Object> m = blank();
    m.put("action_id", e.id());
    m.put("task", e.taskName());
    m.put("goal", e.goal().orElse(null));
    m.put("provider", e.provider());
    m.put("method", e.method());
    m.put("path", e.target());
    return m;
  }

  private Optional<QueuedRequest> queued(ActionBook.Entry e) {
    try {
      return sluice.queue(e.provider()).stream().filter(r -> r.taskId().equals(e.taskId()) && r.target().equals(e.target())).findFirst();
    } catch (java.util.NoSuchElementException x) {
      return Optional.empty();
    }
  }

  Optional<ScopeRecord> scope(String provider) {
    return sluice.scopes().stream().filter(s -> s.provider().equals(provider)).findFirst();
  }
}
