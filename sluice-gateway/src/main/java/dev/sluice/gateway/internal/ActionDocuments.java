package dev.sluice.gateway.internal;

import dev.sluice.core.Sluice;
import dev.sluice.core.engine.Outcome;
import dev.sluice.core.engine.QueuedRequest;
import dev.sluice.core.escalation.Escalation;
import dev.sluice.core.journal.ActionId;
import dev.sluice.core.journal.ActionRecord;
import dev.sluice.core.journal.ActionState;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The JSON documents of {@code GET /v1/actions/{id}} and {@code GET /v1/tasks/{id}}: what this
 * process knows of an action it runs (state, due time, and once done the outcome context), or —
 * for an action it no longer holds, e.g. after a restart — the journal's record (state, attempts,
 * last status, outcome code and reason; the response body is not journaled).
 */
final class ActionDocuments {
  private ActionDocuments() {}

  /** An action of this process. {@code state}: {@code waiting}, {@code in_flight}, {@code reconciling} or {@code done}. */
  static Map<String, Object> live(Sluice sluice, ActionRegistry.Entry e) {
    Map<String, Object> m = head(e.id(), e.task(), e.agent(), e.provider(), e.method(), e.path());
    e.goal().ifPresent(g -> m.put("goal", g));
    m.put("accepted_at", Problem.rfc3339(e.acceptedAt()));
    m.put("journaled", e.journalId().isPresent());
    if (e.outcome().isDone() && !e.outcome().isCompletedExceptionally()) {
      Outcome o = e.outcome().join();
      m.put("state", "done");
      m.putAll(Problem.context(o));
      m.put("finished_at", Problem.rfc3339(o.finishedAt()));
      // The provider's response went to the agent's waiting call (or aged out of the gateway's memory).
      m.put("response_body_kept", e.responseKept() && o.response().isPresent());
      return m;
    }
    Optional<ActionRecord> r = sluice == null ? Optional.empty() : e.journalId().flatMap(sluice::action);
    if (r.isPresent() && r.get().state() == ActionState.AWAITING_APPROVAL) {
      m.put("state", "awaiting_approval");
      m.put("journal_state", r.get().state().code());
      m.put("due_at", null);
      m.put("attempts", 0);
      e.journalId().flatMap(id -> openEscalation(sluice, id)).ifPresent(x -> m.put("escalation", x));
      return m;
    }
    if (r.isPresent() && r.get().state().open()) {
      ActionState s = r.get().state();
      m.put("state", stateOf(s));
      m.put("journal_state", s.code());
      m.put("due_at", s == ActionState.QUEUED || s == ActionState.DELAYED ? Problem.rfc3339(dueAt(sluice, e, r.get())) : null);
      m.put("attempts", r.get().attemptsUsed());
      return m;
    }
    String internalTask = TaskNames.internal(e.agent(), e.task());
    Optional<QueuedRequest> q = sluice == null ? Optional.empty()
        : sluice.queue(e.provider()).stream().filter(x -> x.taskId().equals(internalTask)).findFirst();
    m.put("state", q.isPresent() ? "waiting" : "in_flight");
    m.put("due_at", q.map(x -> Problem.rfc3339(x.dueAt())).orElse(null));
    return m;
  }

  /**
   * When a queued journaled action may leave: the journal's due time, or the engine's when its
   * queue holds the action later (a scope hold, e.g. another task's 429, is the engine's to know;
   * the journal records the due time of retries only).
   */
  private static java.time.Instant dueAt(Sluice sluice, ActionRegistry.Entry e, ActionRecord r) {
    String internalTask = TaskNames.internal(e.agent(), e.task());
    return sluice.queue(e.provider()).stream()
        .filter(x -> x.taskId().equals(internalTask) && x.method().equals(r.method()) && x.target().equals(r.target()))
        .map(QueuedRequest::dueAt).filter(d -> d.isAfter(r.dueAt())).min(java.util.Comparator.naturalOrder()).orElse(r.dueAt());
  }

  /** A journaled action this process does not hold: the durable record, without the response body. */
  static Map<String, Object> journaled(ActionRecord r, int attemptsStarted, Optional<TaskNames.Owned> owner) {
    Map<String, Object> m = head(r.actionId().value(), owner.map(TaskNames.Owned::task).orElse(r.taskId()), owner.map(TaskNames.Owned::agent).orElse(null),
        r.scope().provider(), r.method(), targetPath(r.target()));
    m.put("accepted_at", Problem.rfc3339(r.createdAt()));
    m.put("journaled", true);
    m.put("state", r.state() == ActionState.AWAITING_APPROVAL ? "awaiting_approval" : r.state().open() ? stateOf(r.state()) : "done");
    m.put("journal_state", r.state().code());
    m.put("outcome", r.outcome().map(c -> c.code()).orElse(null));
    m.put("reason", r.reason().orElse(null));
    m.put("attempts", r.attemptsUsed());
    m.put("attempts_started", attemptsStarted);
    m.put("last_status", r.lastStatus().isPresent() ? r.lastStatus().getAsInt() : null);
    m.put("waited_seconds", Math.round(r.waited().toMillis()) / 1000.0);
    m.put("due_at", r.state() == ActionState.QUEUED || r.state() == ActionState.DELAYED ? Problem.rfc3339(r.dueAt()) : null);
    m.put("updated_at", Problem.rfc3339(r.updatedAt()));
    m.put("response_body_kept", false);
    return m;
  }

  /** The open escalation of an action (per-call approval), by the action's journal id. */
  static Optional<String> openEscalation(Sluice sluice, ActionId actionId) {
    return sluice.escalationsOf(actionId).stream().filter(Escalation::open).findFirst().map(x -> x.id().toString());
  }

  private static String stateOf(ActionState s) {
    return switch (s) {
      case QUEUED, DELAYED -> "waiting";
      case IN_FLIGHT -> "in_flight";
      case OUTCOME_UNKNOWN, RECONCILING -> "reconciling";
      default -> "done";
    };
  }

  private static Map<String, Object> head(String id, String task, String agent, String provider, String method, String path) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("id", id);
    m.put("task", task);
    m.put("agent", agent);
    m.put("provider", provider);
    m.put("method", method);
    m.put("path", path);
    return m;
  }

  private static String targetPath(String target) {
    int q = target.indexOf('?');
    return q < 0 ? target : target.substring(0, q);
  }
}
