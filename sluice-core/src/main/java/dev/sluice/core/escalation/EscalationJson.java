package dev.sluice.core.escalation;

import dev.sluice.core.scope.ScopeRecord;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The one JSON shape of an escalation (gateway, CLI {@code --json}, webhook, demo): snake_case keys,
 * instants as RFC 3339 text, durations in seconds, absent values left out. Maps and lists of plain
 * values, for any JSON writer.
 */
public final class EscalationJson {
  private EscalationJson() {}

  /** The escalation with its dossier and options. */
  public static Map<String, Object> of(Escalation e) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("id", e.id().toString());
    m.put("trigger", e.trigger().code());
    m.put("detail", e.detail());
    m.put("state", e.state().code());
    m.put("created_at", e.createdAt().toString());
    m.put("dossier", dossier(e.dossier()));
    List<Object> options = new ArrayList<>();
    for (Option o : e.options()) {
      Map<String, Object> om = new LinkedHashMap<>();
      om.put("option", o.option().code());
      om.put("risk", o.risk());
      om.put("requires_confirmation", o.requiresConfirmation());
      options.add(om);
    }
    m.put("options", options);
    e.decision().ifPresent(d -> m.put("decision", decision(d)));
    return m;
  }

  /** One line of a list: id, trigger, state, task, action, provider, method and endpoint. */
  public static Map<String, Object> summary(Escalation e) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("id", e.id().toString());
    m.put("trigger", e.trigger().code());
    m.put("state", e.state().code());
    m.put("created_at", e.createdAt().toString());
    m.put("task", e.dossier().taskId());
    m.put("action", e.dossier().actionId());
    m.put("provider", e.dossier().provider());
    m.put("method", e.dossier().method());
    m.put("endpoint", e.dossier().endpoint());
    m.put("options", e.options().stream().map(o -> o.option().code()).toList());
    e.decision().ifPresent(d -> m.put("decision", d.option().code()));
    return m;
  }

  static Map<String, Object> decision(Decision d) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("option", d.option().code());
    m.put("by", d.by());
    m.put("reason", d.reason());
    m.put("confirmation", d.confirmation());
    m.put("at", d.at().toString());
    return m;
  }

  /** The dossier alone. */
  public static Map<String, Object> dossier(Dossier d) {
    Map<String, Object> m = new LinkedHashMap<>();
    d.goal().ifPresent(g -> m.put("goal", g));
    m.put("action", d.actionId());
    m.put("task", d.taskId());
    m.put("provider", d.provider());
    m.put("scope", d.scope());
    m.put("method", d.method());
    m.put("endpoint", d.endpoint());
    m.put("target", d.target());
    m.put("request_class", d.requestClass());
    m.put("fingerprint", d.fingerprint());
    m.put("state", d.state());
    d.outcome().ifPresent(o -> m.put("outcome", o));
    d.reason().ifPresent(r -> m.put("reason", r));
    List<Object> attempts = new ArrayList<>();
    for (Dossier.AttemptSummary a : d.attempts()) {
      Map<String, Object> am = new LinkedHashMap<>();
      am.put("attempt", a.number());
      am.put("kind", a.kind());
      am.put("started_at", a.startedAt().toString());
      a.finishedAt().ifPresent(t -> am.put("finished_at", t.toString()));
      a.status().ifPresent(s -> am.put("status", s));
      a.failure().ifPresent(f -> am.put("failure", f));
      am.put("request_committed", a.requestCommitted());
      if (!a.rateLimitHeaders().isEmpty()) {
        am.put("headers", new java.util.TreeMap<>(a.rateLimitHeaders()));
      }
      attempts.add(am);
    }
    m.put("attempts", attempts);
    Map<String, Object> budget = new LinkedHashMap<>();
    budget.put("attempts_used", d.budget().attemptsUsed());
    budget.put("max_attempts", d.budget().maxAttempts());
    budget.put("waited_seconds", d.budget().waited().toMillis() / 1000.0);
    budget.put("max_wait_seconds", d.budget().maxWait().toSeconds());
    d.budget().deadline().ifPresent(t -> budget.put("deadline", t.toString()));
    m.put("budget", budget);
    d.idempotencyKey().ifPresent(k -> m.put("idempotency_key", k));
    d.providerOperationId().ifPresent(k -> m.put("provider_operation_id", k));
    d.reconciliationQuery().ifPresent(k -> m.put("reconciliation_query", k));
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("size", d.body().size());
    body.put("sha256", d.body().sha256());
    body.put("top_level_fields", d.body().topLevelFields());
    body.put("kept", d.body().kept());
    m.put("body", body);
    d.scopeState().ifPresent(s -> m.put("scope_state", scope(s)));
    return m;
  }

  private static Map<String, Object> scope(ScopeRecord s) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("provider", s.provider());
    m.put("scope", s.scope());
    m.put("request_class", s.requestClass());
    m.put("next_allowed_at", s.nextAllowedAt().map(Object::toString).orElse(null));
    m.put("remaining", s.remaining().isPresent() ? s.remaining().getAsLong() : null);
    m.put("reset_after_seconds", s.resetAfterSeconds().isPresent() ? s.resetAfterSeconds().getAsLong() : null);
    m.put("source", s.source());
    return m;
  }
}
