package dev.sluice.core.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.core.engine.OutcomeCode;
import dev.sluice.core.engine.internal.Fingerprints;
import dev.sluice.core.escalation.DecisionOption;
import dev.sluice.core.escalation.Dossier;
import dev.sluice.core.escalation.Escalation;
import dev.sluice.core.escalation.EscalationId;
import dev.sluice.core.escalation.Option;
import dev.sluice.core.escalation.Trigger;
import dev.sluice.core.journal.ActionId;
import dev.sluice.core.journal.ActionRecord;
import dev.sluice.core.journal.ActionState;
import dev.sluice.core.journal.AttemptEnd;
import dev.sluice.core.journal.AttemptKind;
import dev.sluice.core.journal.AttemptRecord;
import dev.sluice.core.journal.EscalationRecord;
import dev.sluice.core.journal.Journal;
import dev.sluice.core.journal.NewEscalation;
import dev.sluice.core.policy.EscalationSettings;
import dev.sluice.core.policy.Policy;
import dev.sluice.core.policy.Provider;
import dev.sluice.core.policy.Route;
import dev.sluice.core.policy.RouteMatch;
import dev.sluice.core.scope.ScopeRecord;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Raises escalations (DESIGN.md §3 rule 12) and builds what an operator sees: the trigger an
 * outcome amounts to, the options that are safe for the action with their risks, and the dossier
 * from the journal's rows. The deciding methods ({@link #triggerFor}, {@link #raise}, {@link
 * #rateLimited}) run on the journal writer's thread, in order with the action's transitions; the
 * viewing methods on any thread.
 *
 * <p>De-duplication: a trigger about a whole scope (its budget, the provider's quota, repeated
 * 429s) is raised once per scope while open; one about a task's time (deadline, time budget, a
 * circuit on a write) once per task while open; an uncertain write and a per-call approval once
 * per action. An outcome not escalated because of that ends as it did before (failed).
 */
public final class Escalations {
  private static final Logger LOG = LoggerFactory.getLogger(Escalations.class);
  private static final ObjectMapper JSON = new ObjectMapper();

  private final Policy policy;
  private final Journal journal;
  private final Supplier<Instant> clock;
  private final java.util.function.Function<String, Optional<ScopeRecord>> scopeState;
  private volatile Consumer<Escalation> listener = e -> {};
  private final Optional<AuditTrail> audit;
  /** The open escalation raised per de-duplication key (scope, task or action). */
  private final Map<String, EscalationId> openByKey = new ConcurrentHashMap<>();
  /** The latest open escalation per action: what an agent's outcome names. */
  private final Map<ActionId, EscalationId> openByAction = new ConcurrentHashMap<>();
  /** Writer thread only: the 429s of the last hour per scope. */
  private final Map<String, ArrayDeque<Instant>> rateLimits = new HashMap<>();

  public Escalations(Policy policy, Journal journal, Supplier<Instant> clock, java.util.function.Function<String, Optional<ScopeRecord>> scopeState,
      Optional<AuditTrail> audit) {
    this.policy = policy;
    this.journal = journal;
    this.clock = clock;
    this.scopeState = scopeState;
    this.audit = audit;
    for (EscalationRecord r : journal.escalations()) {
      if (r.decision().isEmpty()) {
        openByAction.put(r.actionId(), r.id());
        journal.action(r.actionId()).ifPresent(a -> openByKey.put(dedupeKey(r.trigger(), a), r.id()));
      }
    }
  }

  /** Receives every new escalation, after it is durable (the webhook). Called on the writer's thread; must not block long. */
  /** Adds a listener told of each new escalation, after it is durable (on the journal's thread: keep it short). */
  public void onRaised(Consumer<Escalation> l) {
    java.util.Objects.requireNonNull(l, "listener");
    Consumer<Escalation> before = this.listener;
    this.listener = before.andThen(l);
  }

  public EscalationSettings settings() {
    return policy.escalation();
  }

  // ---------------------------------------------------------------- deciding (writer thread)

  /**
   * The trigger an action's end amounts to, when it is in force and not already raised for the
   * same scope or task; {@link Trigger#UNCERTAIN_WRITE} is decided by the caller from the state the
   * action reached.
   */
  public Optional<Trigger> triggerFor(ActionId id, OutcomeCode code, String reason) {
    Optional<ActionRecord> a = journal.action(id);
    if (a.isEmpty()) {
      return Optional.empty();
    }
    Trigger t = switch (code) {
      case DEADLINE_EXCEEDED -> Trigger.DEADLINE_EXCEEDED;
      // The task's attempt budget (the agent's rule), else, with the class's attempts left, the
      // time budget (the seed's "remaining wait"); the class's attempts spent is an ordinary end.
      case BUDGET_EXHAUSTED -> reason.contains(dev.sluice.core.engine.Engine.TASK_ATTEMPT_BUDGET_SPENT) ? Trigger.TASK_BUDGET_EXHAUSTED
          : a.get().attemptsUsed() < a.get().requestClass().maxAttempts() ? Trigger.WAIT_BUDGET_EXHAUSTED : null;
      case SCOPE_BACKPRESSURE -> Trigger.SCOPE_EXHAUSTED;
      case QUOTA_EXHAUSTED -> Trigger.QUOTA_EXHAUSTED;
      case CIRCUIT_OPEN -> a.get().write() ? Trigger.CIRCUIT_OPEN_WRITE : null;
      default -> null;
    };
    if (t == null || !settings().enabled(t)) {
      return Optional.empty();
    }
    EscalationId open = openByKey.get(dedupeKey(t, a.get()));
    if (open != null && journal.escalation(open).map(r -> r.decision().isEmpty()).orElse(false)) {
      return Optional.empty();
    }
    return Optional.of(t);
  }

  /** Whether uncertain writes are escalated. */
  public boolean escalatesUncertainWrites() {
    return settings().enabled(Trigger.UNCERTAIN_WRITE);
  }

  /**
   * Records the escalation of the action (durable), writes the audit event {@code escalated} (the
   * seed's name; with the escalation id, trigger and options) and tells the listener.
   */
  public Optional<Escalation> raise(ActionId id, Trigger trigger, String detail) {
    try {
      ActionRecord a = journal.action(id).orElseThrow();
      List<DecisionOption> options = options(a, trigger, detail);
      EscalationRecord r = journal.recordEscalation(new NewEscalation(id, trigger, detail, options, clock.get()));
      openByAction.put(id, r.id());
      openByKey.put(dedupeKey(trigger, a), r.id());
      Escalation e = view(r);
      audit.ifPresent(t -> {
        Map<String, Object> f = new LinkedHashMap<>();
        f.put("escalation", r.id().toString());
        f.put("task", a.taskId());
        f.put("action", id.toString());
        f.put("trigger", trigger.code());
        f.put("scope", a.scope().scope());
        a.idempotencyKey().ifPresent(k -> f.put("idempotency", k));
        f.put("options", String.join(",", options.stream().map(DecisionOption::code).toList()));
        t.event("escalated", r.createdAt(), f);
      });
      LOG.info("escalation {} raised for action {} of task {}: {}", r.id(), id, a.taskId(), trigger.code());
      try {
        listener.accept(e);
      } catch (RuntimeException ex) {
        LOG.warn("escalation listener failed for {}: {}", r.id(), ex.toString());
      }
      return Optional.of(e);
    } catch (RuntimeException e) {
      LOG.error("could not record the escalation of action {} ({}): {}", id, trigger.code(), e.toString());
      return Optional.empty();
    }
  }

  /**
   * Counts a 429 on the action's scope; past {@code rate_limits_per_hour} within an hour, on a
   * scope whose quota is configured, raises {@code repeated_rate_limits} once (the action goes on).
   */
  public void rateLimited(ActionId id, Instant at) {
    if (!settings().enabled(Trigger.REPEATED_RATE_LIMITS)) {
      return;
    }
    Optional<ActionRecord> a = journal.action(id);
    if (a.isEmpty()) {
      return;
    }
    Provider p = policy.providers().get(a.get().scope().provider());
    if (p == null || p.rate().isEmpty()) {
      return; // no configured quota: 429s teach Sluice the quota, they do not point at a mistake
    }
    ArrayDeque<Instant> seen = rateLimits.computeIfAbsent(a.get().scope().toString(), k -> new ArrayDeque<>());
    seen.addLast(at);
    Instant hourAgo = at.minus(Duration.ofHours(1));
    while (!seen.isEmpty() && !seen.peekFirst().isAfter(hourAgo)) {
      seen.removeFirst();
    }
    if (seen.size() <= settings().rateLimitsPerHour()) {
      return;
    }
    EscalationId open = openByKey.get(dedupeKey(Trigger.REPEATED_RATE_LIMITS, a.get()));
    if (open != null && journal.escalation(open).map(r -> r.decision().isEmpty()).orElse(false)) {
      return;
    }
    raise(id, Trigger.REPEATED_RATE_LIMITS, seen.size() + " responses 429 within an hour on scope " + a.get().scope().scope() + " of provider "
        + p.id() + ", whose quota is configured (rate: " + p.rate().get().requests() + " per " + p.rate().get().per().toSeconds()
        + " s); more than escalation.rate_limits_per_hour (" + settings().rateLimitsPerHour() + ") points at a configuration problem");
  }

  /** Forgets a decided escalation for de-duplication. */
  public void decided(EscalationRecord r) {
    openByAction.remove(r.actionId(), r.id());
    openByKey.values().removeIf(v -> v.equals(r.id()));
  }

  /** The open escalation of an action, if any. */
  public Optional<EscalationId> openFor(ActionId id) {
    return Optional.ofNullable(openByAction.get(id));
  }

  private static String dedupeKey(Trigger t, ActionRecord a) {
    return switch (t) {
      case SCOPE_EXHAUSTED, QUOTA_EXHAUSTED, REPEATED_RATE_LIMITS -> t.code() + " scope " + a.scope();
      case DEADLINE_EXCEEDED, WAIT_BUDGET_EXHAUSTED, TASK_BUDGET_EXHAUSTED, CIRCUIT_OPEN_WRITE -> t.code() + " task " + a.taskId();
      case UNCERTAIN_WRITE, APPROVAL_REQUIRED -> t.code() + " action " + a.actionId();
    };
  }

  // ---------------------------------------------------------------- options

  /** What may be decided for this action and trigger, in the order offered. */
  List<DecisionOption> options(ActionRecord a, Trigger trigger, String detail) {
    List<DecisionOption> out = new ArrayList<>();
    switch (trigger) {
      case APPROVAL_REQUIRED -> {
        out.add(DecisionOption.APPROVE);
        out.add(DecisionOption.REJECT);
      }
      case REPEATED_RATE_LIMITS -> {
        out.add(DecisionOption.ACKNOWLEDGE);
        out.add(DecisionOption.CANCEL);
      }
      case UNCERTAIN_WRITE -> {
        if (reconciliationQuery(a).isPresent()) {
          out.add(DecisionOption.QUERY_EXISTING);
        }
        if (a.payloadKept() && (a.idempotencyKey().isPresent() || provenAbsent(a, detail))) {
          out.add(DecisionOption.RETRY_SAME_KEY);
        }
        out.add(DecisionOption.CANCEL);
        if (a.payloadKept()) {
          out.add(DecisionOption.SEND_NEW);
        }
      }
      default -> {
        // Past the task's deadline, or with its attempt budget spent, nothing of the task may be
        // sent (both are the agent's rules, not Sluice's to lift): only cancelling is offered.
        if (a.payloadKept() && trigger != Trigger.DEADLINE_EXCEEDED && trigger != Trigger.TASK_BUDGET_EXHAUSTED) {
          out.add(DecisionOption.RETRY_SAME_KEY);
        }
        out.add(DecisionOption.CANCEL);
      }
    }
    return out;
  }

  /** The engine's words when a look-up proved the write absent and its budget was used. */
  static boolean provenAbsent(ActionRecord a, String detail) {
    return detail.contains("so the write did not take effect");
  }

  /** The risk of each option for this action, written for the person deciding. */
  Option risk(DecisionOption o, ActionRecord a, Trigger trigger, String detail) {
    String key = a.idempotencyKey().map(k -> "the original idempotency key " + k).orElse("no idempotency key");
    String text = switch (o) {
      case QUERY_EXISTING -> "safe: sends one look-up (" + reconciliationQuery(a).orElse("?") + ") through scope " + a.scope().scope()
          + "'s gates and budget; nothing is resent. Found: the action succeeds with the provider's record. Proven absent: you are asked again,"
          + " with a resend offered.";
      case RETRY_SAME_KEY -> !a.write() ? "resends the read (no effect at the provider); it uses quota of scope " + a.scope().scope()
          + ", which may still be held; the class's budget starts again."
          : provenAbsent(a, detail) ? "a look-up proved the provider holds no record of this write: resends the stored request with " + key
              + " and the same client reference; the class's budget starts again."
          : a.idempotencyKey().isPresent() ? "resends the stored request with " + key + ": a provider that honours the key returns the first"
              + " result instead of acting twice; one that ignores keys could act twice. The class's budget starts again."
          : "resends the stored write; it carries no idempotency key, so if an earlier attempt took effect the provider may act twice.";
      case CANCEL -> "cancels task " + a.taskId() + ": this action and every queued or delayed action of the task never leave, and later"
          + " calls of the task are refused. " + (a.write() && a.attemptsUsed() > 0
              ? "An attempt of this write was sent: if it took effect at the provider, that effect stays." : "Nothing more is sent.");
      case SEND_NEW -> "FLAGGED: may create a second external effect. Sends the stored request as a new operation under a new idempotency key"
          + " (and a new client reference), so the provider cannot recognise it as the same operation. Only when you know the first did not"
          + " take effect. Requires confirmation.";
      case ACKNOWLEDGE -> "changes nothing: Sluice keeps pacing scope " + a.scope().scope() + " as configured and the action goes on; fix the"
          + " provider's rate in sluice.yaml if the published quota is wrong.";
      case APPROVE -> "sends this " + a.method() + " " + a.routeTemplate() + " now, through the scope's gates and budgets"
          + a.idempotencyKey().map(k -> ", with idempotency key " + k).orElse("") + "; it may take effect at the provider.";
      case REJECT -> "never sends it; the agent is told the action was rejected.";
    };
    return new Option(o, text, o == DecisionOption.SEND_NEW);
  }

  // ---------------------------------------------------------------- viewing (any thread)

  /** The escalation with its dossier built from the journal now. */
  public Escalation view(EscalationRecord r) {
    ActionRecord a = journal.action(r.actionId()).orElseThrow(() -> new IllegalStateException("escalation " + r.id() + " names action "
        + r.actionId() + ", which the journal does not have"));
    List<Option> options = r.options().stream().map(o -> risk(o, a, r.trigger(), r.detail())).toList();
    return new Escalation(r.id(), r.trigger(), r.detail(), r.state(), r.createdAt(), dossier(a), options, r.decision());
  }

  /** The dossier of an action, secret-free (DESIGN.md §3 rule 12). */
  public Dossier dossier(ActionRecord a) {
    List<Dossier.AttemptSummary> attempts = new ArrayList<>();
    for (AttemptRecord at : journal.attempts(a.actionId())) {
      OptionalInt status = OptionalInt.empty();
      Optional<String> failure = Optional.empty();
      if (at.end().isPresent()) {
        if (at.end().get() instanceof AttemptEnd.Response resp) {
          status = OptionalInt.of(resp.status());
        } else {
          failure = Optional.of(at.end().get().code());
        }
      }
      attempts.add(new Dossier.AttemptSummary(at.number(), at.kind() == AttemptKind.LOOKUP ? "lookup" : "send", at.startedAt(), at.finishedAt(),
          status, failure, at.requestCommitted(), at.rateLimitHeaders().asMap()));
    }
    Dossier.Budget budget = new Dossier.Budget(a.attemptsUsed(), a.requestClass().maxAttempts(), a.waited(), a.requestClass().maxWait(),
        a.deadline());
    Dossier.BodySummary body = new Dossier.BodySummary(a.payloadSize(), a.payloadDigest(), fieldNames(a), a.payloadKept());
    return new Dossier(journal.taskGoal(a.taskId()), a.actionId().toString(), a.taskId(), a.scope().provider(), a.scope().scope(), a.method(),
        a.routeTemplate(), a.target(), a.requestClass().name(), Fingerprints.path(a.method(), a.routeTemplate(), a.payload(), Set.of()),
        a.state().code(), a.outcome().map(c -> c.code()), a.reason(), attempts, budget, a.idempotencyKey(), a.providerOperationId(),
        reconciliationQuery(a), body, scopeState.apply(a.scope().provider()));
  }

  /** The route's look-up for this action, filled in: {@code GET /v1/transfers?idempotency_key=…}. */
  Optional<String> reconciliationQuery(ActionRecord a) {
    Provider p = policy.providers().get(a.scope().provider());
    if (p == null || !a.write()) {
      return Optional.empty();
    }
    RouteMatch match = p.classify(a.method(), a.target());
    Route route = match.route();
    if (route.lookup().isEmpty()) {
      return Optional.empty();
    }
    Map<String, String> values = new HashMap<>(match.pathParameters());
    a.idempotencyKey().ifPresent(k -> values.put("idempotency_key", k));
    a.externalReference().ifPresent(r -> values.put("external_reference", r));
    a.providerOperationId().ifPresent(r -> values.put("operation_id", r));
    if (!values.keySet().containsAll(route.lookup().get().path().placeholders())) {
      return Optional.empty();
    }
    try {
      return Optional.of(route.lookup().get().method() + " " + route.lookup().get().path().expand(values));
    } catch (IllegalArgumentException e) {
      return Optional.empty();
    }
  }

  private static List<String> fieldNames(ActionRecord a) {
    if (!a.payloadKept() || a.payloadSize() == 0) {
      return List.of();
    }
    try {
      JsonNode n = JSON.readTree(a.payload());
      if (n != null && n.isObject()) {
        List<String> names = new ArrayList<>();
        for (Iterator<String> it = n.fieldNames(); it.hasNext(); ) {
          names.add(it.next());
        }
        return names;
      }
    } catch (java.io.IOException | RuntimeException e) {
      // not JSON: no field names
    }
    return List.of();
  }

  /** The states from which the escalation's action is still held for a person. */
  static boolean held(ActionState s) {
    return s == ActionState.ESCALATED || s == ActionState.AWAITING_APPROVAL;
  }
}
