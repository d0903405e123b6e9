package dev.sluice.core;

import dev.sluice.core.engine.ActionRequest;
import dev.sluice.core.engine.Engine;
import dev.sluice.core.engine.Outcome;
import dev.sluice.core.engine.OutcomeCode;
import dev.sluice.core.engine.QueuedRequest;
import dev.sluice.core.engine.Scheduler;
import dev.sluice.core.engine.SystemScheduler;
import dev.sluice.core.engine.TaskBudget;
import dev.sluice.core.engine.Transport;
import dev.sluice.core.http.Headers;
import dev.sluice.core.engine.LookupPlan;
import dev.sluice.core.internal.CallCheck;
import dev.sluice.core.internal.Escalations;
import dev.sluice.core.escalation.Decision;
import dev.sluice.core.escalation.DecisionException;
import dev.sluice.core.escalation.DecisionOption;
import dev.sluice.core.escalation.DecisionRequest;
import dev.sluice.core.escalation.DecisionResult;
import dev.sluice.core.escalation.Escalation;
import dev.sluice.core.escalation.EscalationId;
import dev.sluice.core.escalation.Trigger;
import dev.sluice.core.journal.EscalationRecord;
import dev.sluice.core.internal.ExternalReferences;
import dev.sluice.core.internal.JournalWriter;
import dev.sluice.core.internal.JournaledTransport;
import dev.sluice.core.journal.ActionChanges;
import dev.sluice.core.journal.ActionId;
import dev.sluice.core.journal.ActionRecord;
import dev.sluice.core.journal.ActionState;
import dev.sluice.core.journal.AttemptEnd;
import dev.sluice.core.journal.AttemptKind;
import dev.sluice.core.journal.AttemptRecord;
import dev.sluice.core.journal.DuplicateIdempotencyKeyException;
import dev.sluice.core.journal.Journal;
import dev.sluice.core.journal.JournalException;
import dev.sluice.core.journal.JournalFactory;
import dev.sluice.core.journal.NewAction;
import dev.sluice.core.journal.internal.Ulid;
import dev.sluice.core.policy.Route;
import dev.sluice.core.internal.ProviderSetup;
import dev.sluice.core.internal.Secrets;
import dev.sluice.core.policy.Policy;
import dev.sluice.core.policy.PolicyLoader;
import dev.sluice.core.policy.Provider;
import dev.sluice.core.policy.RequestClass;
import dev.sluice.core.policy.RouteMatch;
import dev.sluice.core.scope.InMemoryScopeRegistry;
import dev.sluice.core.scope.ScopeRecord;
import dev.sluice.core.transport.JettyTransport;
import dev.sluice.core.transport.ProviderEndpoint;
import dev.sluice.core.transport.TransportSettings;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.ServiceLoader;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * Sluice embedded in a JVM process: the policy of a {@code sluice.yaml} mapped onto the engine,
 * with the HTTP transport, behind one call.
 *
 * <pre>{@code
 * try (Sluice sluice = Sluice.load(Path.of("sluice.yaml"))) {
 *   Outcome o = sluice.submit(Call.get("billing-api", "/v1/invoices/inv_1", "sync-482")).join();
 *   if (o.succeeded()) { ... o.response() ... } else { ... o.reason(), o.nextSafeAction() ... }
 * }
 * }</pre>
 *
 * <p>Mapping of the policy: each provider's {@code scope} is one shared queue ({@code
 * shared_scope}: {@code max_concurrent_requests}, {@code max_delayed_requests}; {@code rate}: the
 * pacing bucket with its {@code interactive_reserve} and {@code burst}, default {@code requests}).
 * Each call is matched to a route ({@link Provider#classify}), which gives its request class
 * (budget), whether it is immutable (identical concurrent reads share one attempt) and whether it
 * can be looked up after an uncertain send. A write to a provider with an {@code
 * idempotency_header} carries one idempotency key for all its attempts: the caller's ({@link
 * Call#idempotencyKey()}, or the agent's own header of that name), else one generated for the call.
 * Each provider has its own engine (its quota-exhaustion rules and rate-limit dialect); all share
 * one scheduler and one scope registry. Generated keys are {@code sk_<ulid>}: one per logical
 * action, never one per attempt.
 *
 * <p>{@link #submit} never throws for anything an agent controls: an unknown provider, an unsafe
 * path ({@link dev.sluice.core.policy.PathSafety}), a malformed method, header or key, or a body
 * over {@link Builder#maxRequestBytes} come back at once as a {@link OutcomeCode#REFUSED} outcome
 * that says why; nothing is sent. Every other outcome is the engine's (see {@link Outcome}).
 *
 * <p>Durability ({@link Builder#journal}; {@link #load} opens the policy's journal): every call
 * except coalescible immutable reads is recorded in the {@link Journal} before it is queued — for
 * a write a power-loss-safe commit holding its idempotency key, payload and external reference,
 * so nothing is sent before the row is durable — and each attempt's start is committed before the
 * request leaves (see {@link JournaledTransport}). The future of a journaled call completes once
 * its final state is committed. On build, the journal's open actions are resumed: queued and
 * delayed ones with their due times and used budget, those whose send was in flight go to
 * reconciliation with their original key ({@link #recovered()}); a cancelled task stays
 * cancelled. Without a journal Sluice keeps nothing across restarts.
 *
 * <p>External reference: when the route names one ({@code external_reference}) and the body of a
 * write is a JSON object, that field carries a stable client reference (the caller's, or a fresh
 * {@code sr_<ulid>}) on every attempt; the route's look-up can then find the record.
 *
 * <p>Secrets: the credential of each provider is read once, at {@link Builder#build()}, from its
 * {@code secret_env} (through {@link Builder#secrets}) or {@code secret_file}, and handed to the
 * transport, the only place it is used. It never appears in an outcome, a log or an exception.
 *
 * <p>Time: the engine reads time only from the {@link Scheduler} (wall clock by default, a {@link
 * dev.sluice.core.engine.VirtualScheduler} in tests). Futures complete on the transport's or the
 * scheduler's threads, or (journaled calls) on the common fork-join pool, never on the journal's
 * thread, so a callback may call Sluice again; use the {@code *Async} methods for slow callbacks.
 *
 * <p>Thread-safe. {@link #close()} cancels every pending call (its future completes {@code
 * cancelled}) and stops what the builder created (transport, scheduler); a transport or scheduler
 * passed in is left to its owner.
 */
public final class Sluice implements AutoCloseable {
  private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(Sluice.class);
  /** The largest request body accepted by default: 1 MiB. */
  public static final int DEFAULT_MAX_REQUEST_BYTES = 1 << 20;

  private static final Set<String> SAFE_METHODS = Set.of("GET", "HEAD", "OPTIONS", "TRACE");

  private final Policy policy;
  private final Scheduler scheduler;
  private final InMemoryScopeRegistry registry;
  private final Map<String, Lane> lanes;
  private final int maxRequestBytes;
  private final List<AutoCloseable> owned;
  /** Pending calls per task, so close() can cancel them; entries go when their count reaches 0. */
  private final ConcurrentHashMap<String, Integer> pendingByTask = new ConcurrentHashMap<>();
  private volatile boolean closed;
  private final Optional<JournalWriter> writer;
  private final Optional<dev.sluice.core.internal.AuditTrail> audit;
  private final Map<ActionId, CompletableFuture<Outcome>> recovered = new ConcurrentHashMap<>();
  /** The journaled actions of this process still running (submitted or recovered), by journal id. */
  private final Map<ActionId, CompletableFuture<Outcome>> live = new ConcurrentHashMap<>();

  private record Lane(Provider provider, Engine engine) {}

  /** Raises and shows escalations; present with a journal. */
  private final Optional<Escalations> escalations;
  /** Actions held for per-call approval in this process: the caller's pending future, by journal id. */
  private final Map<ActionId, CompletableFuture<Outcome>> held = new ConcurrentHashMap<>();
  /** Tasks whose goal this process already recorded. */
  private final Set<String> goalsRecorded = ConcurrentHashMap.newKeySet();

  private Sluice(Policy policy, Scheduler scheduler, InMemoryScopeRegistry registry, Map<String, Lane> lanes, int maxRequestBytes,
      List<AutoCloseable> owned, Optional<JournalWriter> writer, Optional<dev.sluice.core.internal.AuditTrail> audit,
      Optional<Escalations> escalations) {
    this.escalations = escalations;
    this.audit = audit;
    this.writer = writer;
    this.policy = policy;
    this.scheduler = scheduler;
    this.registry = registry;
    this.lanes = lanes;
    this.maxRequestBytes = maxRequestBytes;
    this.owned = owned;
  }

  /** A builder; {@link Builder#policy} is required. */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * Loads {@code sluice.yaml} and starts Sluice on the wall clock with the HTTP transport, the
   * process environment for {@code secret_env}, and the journal the policy names (the embedded
   * SQLite one in {@code data_dir} unless {@code store} says otherwise), found through {@link
   * JournalFactory} (sluice-store must be on the class path). Open actions of an earlier run are
   * resumed. With an {@code audit} block, the audit log is written too (see {@link
   * Builder#auditFromPolicy()}).
   *
   * @throws dev.sluice.core.policy.PolicyException when the file is invalid (every problem listed)
   * @throws IllegalStateException when a provider's secret cannot be read, or no journal
   *     implementation handles the policy's store
   */
  public static Sluice load(Path file) {
    Policy policy = PolicyLoader.load(file);
    Builder b = builder().policy(policy).journalFromPolicy();
    return (policy.audit().isPresent() ? b.auditFromPolicy() : b).build();
  }

  /** The journal the policy names, from the first {@link JournalFactory} on the class path that handles it. */
  static Journal openJournal(Policy policy) {
    for (JournalFactory f : ServiceLoader.load(JournalFactory.class, Sluice.class.getClassLoader())) {
      Optional<Journal> j = f.open(policy);
      if (j.isPresent()) {
        return j.get();
      }
    }
    throw new IllegalStateException("no journal implementation for " + (policy.store().isPresent() ? "the configured store" : "data_dir "
        + policy.dataDir()) + " on the class path; add the sluice-store module (the embedded SQLite journal)");
  }

  /**
   * The outcomes of the actions resumed from the journal at start, by journal id: each completes
   * like a submitted call's. Empty without a journal.
   */
  public Map<ActionId, CompletableFuture<Outcome>> recovered() {
    return Map.copyOf(recovered);
  }

  /**
   * An action's durable record (state, due time, attempts used, time waited, last status, outcome
   * code and reason), read from the journal; it is there after a restart too. The response body is
   * not journaled: the outcome future carries it.
   *
   * @return empty when no journal is configured or the id is unknown
   */
  public Optional<ActionRecord> action(ActionId id) {
    Objects.requireNonNull(id, "id");
    return writer.flatMap(w -> w.journal().action(id));
  }

  /** An action's attempts, in order, from the journal; empty without a journal or for an unknown id. */
  public List<AttemptRecord> attempts(ActionId id) {
    Objects.requireNonNull(id, "id");
    return writer.map(w -> w.journal().attempts(id)).orElse(List.of());
  }

  /**
   * The outcome future of an action this process is still running (submitted through {@link
   * #start} or resumed at start-up); empty once it has completed, or when another process ran it.
   */
  public Optional<CompletableFuture<Outcome>> pending(ActionId id) {
    Objects.requireNonNull(id, "id");
    return Optional.ofNullable(live.get(id));
  }

  /**
   * A reader of this instance's audit log, holding its encryption key (if any) so payloads come
   * back decrypted; empty when no audit log is written. Callers decide who may see it (the
   * gateway's {@code GET /v1/audit} requires the {@code audit_read} permission).
   */
  public Optional<dev.sluice.core.audit.AuditReader> auditReader() {
    return audit.map(a -> a.log().settings()).map(s -> new dev.sluice.core.audit.AuditReader(s.dir(), s.encryption().stream().toList()));
  }

  /** The policy in force. */
  public Policy policy() {
    return policy;
  }

  /**
   * Queues a call. The future completes with its terminal {@link Outcome}; it never completes
   * exceptionally for provider, budget or input reasons.
   *
   * @throws IllegalStateException after {@link #close()}
   */
  public CompletableFuture<Outcome> submit(Call call) {
    return start(call).outcome();
  }

  /**
   * Queues a call like {@link #submit}, and also returns the journal's id of its action, assigned
   * once the action is durably recorded and before anything is sent. Use the id to follow the
   * action without holding the future ({@link #action}, {@link #attempts}, {@link #pending}), for
   * example to answer an agent that polls later, after a restart too.
   *
   * @throws IllegalStateException after {@link #close()}
   */
  public Submission start(Call call) {
    Objects.requireNonNull(call, "call");
    if (closed) {
      throw new IllegalStateException("this Sluice is closed");
    }
    Instant now = scheduler.now();
    Lane lane = lanes.get(call.provider());
    if (lane == null) {
      return Submission.unjournaled(refused(call, now, "unknown_provider: provider '" + call.provider() + "' is not in the policy; configured: " + lanes.keySet(),
          "call one of the configured providers, or add this one to sluice.yaml"));
    }
    Optional<String> problem = CallCheck.problem(call, maxRequestBytes);
    if (problem.isPresent()) {
      return Submission.unjournaled(refused(call, now, problem.get(), "fix the call as the reason says; repeating it unchanged cannot succeed"));
    }
    Provider p = lane.provider();
    RouteMatch match = p.classify(call.method(), call.target());
    RequestClass rc = policy.requestClass(match);
    boolean write = !SAFE_METHODS.contains(call.method());
    Headers headers = call.headers();
    // Credentials are Sluice's to inject, never the caller's to send or the journal's to keep.
    for (String reserved : List.of("authorization", "proxy-authorization", "cookie")) {
      headers = without(headers, reserved);
    }
    if (p.credential().isPresent()) {
      headers = without(headers, p.credential().get().header());
    }
    Optional<String> key = Optional.empty();
    if (p.idempotencyHeader().isPresent()) {
      String name = p.idempotencyHeader().get();
      Optional<String> agentHeader = headers.first(name);
      headers = without(headers, name);
      if (write) {
        // One key per logical action, minted here once: every attempt, retry and resend reuses it.
        key = Optional.of(call.idempotencyKey().or(() -> agentHeader).orElseGet(() -> "sk_" + Ulid.generate(now)));
      }
    }
    Route route = match.route();
    byte[] body = call.body();
    Optional<String> reference = Optional.empty();
    if (write && route.externalReference().isPresent()) {
      Optional<ExternalReferences.Filled> filled = ExternalReferences.fill(body, route.externalReference().get(), () -> "sr_" + Ulid.generate(now));
      if (filled.isPresent()) {
        body = filled.get().body();
        reference = Optional.of(filled.get().reference());
      }
    }
    ActionRequest action = new ActionRequest(call.taskId(), call.priority(), ProviderSetup.scopeId(p), rc, call.method(),
        route.path().template(), call.target(), headers, body, route.immutable(), key, route.lookup().isPresent());
    action = withLookup(action, route, match.pathParameters(), key, reference);
    call.deadline().ifPresent(d -> lane.engine().setTaskBudget(call.taskId(), TaskBudget.deadline(d)));
    boolean approval = route.approval() == dev.sluice.core.policy.Approval.PER_CALL;
    if (approval && escalations.isEmpty()) {
      return Submission.unjournaled(refused(call, now, "approval_unavailable: route " + route.method() + " " + route.path().template()
          + " of provider '" + p.id() + "' needs an operator's approval for each call (approval: per_call), which needs a journal; nothing was sent",
          "run Sluice with its journal (Sluice.load, or Builder#journal) so the action can be held for approval"));
    }
    boolean journaled = writer.isPresent() && (!action.immutable() || approval);
    if (journaled) {
      JournalWriter w = writer.get();
      if (w.journal().isCancelled(call.taskId())) {
        lane.engine().cancel(call.taskId()); // cancelled in an earlier run: it stays cancelled
      }
      try {
        recordGoal(w, call.taskId(), call.goal());
        NewAction.Builder b = NewAction.from(action, now).externalReference(reference.orElse(null));
        call.deadline().ifPresent(b::deadline);
        if (approval) {
          b.awaitingApproval();
        }
        action = action.withJournalId(w.record(b.build()).actionId());
      } catch (DuplicateIdempotencyKeyException e) {
        // Never advise a new key here: the agent repeating a call it already made is exactly the
        // case a key exists for, and a new key could create a second effect at the provider.
        return Submission.unjournaled(refused(call, now, "duplicate_idempotency_key: an action of provider '" + p.id() + "' already holds this idempotency key; "
            + "this call was not sent",
            "this key already names an action: wait for that action's outcome or look it up; do not send the same operation under a new key"));
      } catch (JournalException | IllegalArgumentException e) {
        LOG.warn("could not journal an action of provider {} for task {}: {}", p.id(), call.taskId(), e.toString());
        return Submission.unjournaled(refused(call, now, "not_journaled: the action could not be recorded durably, so it was not sent",
            "nothing was sent; try again once the journal is writable"));
      }
    }
    ActionRequest requested = action;
    audit.ifPresent(a -> a.requested(requested, now));
    if (approval) {
      return holdForApproval(requested, route, p, now);
    }
    pendingByTask.merge(call.taskId(), 1, Integer::sum);
    CompletableFuture<Outcome> f;
    try {
      f = lane.engine().submit(action);
    } catch (RuntimeException e) {
      done(call.taskId());
      throw e;
    }
    f.whenComplete((o, e) -> done(call.taskId()));
    if (journaled) {
      // The agent hears the outcome once the action's final state is committed.
      JournalWriter w = writer.get();
      // Completed off the journal thread: a caller's callback may call Sluice again (cancel waits
      // for the journal), which on the journal thread itself would deadlock every send.
      ActionId id = action.journalId().orElseThrow();
      CompletableFuture<Outcome> committed = f.thenCompose(o -> w.barrier().thenApplyAsync(v -> annotate(id, o)));
      live.put(id, committed);
      committed.whenComplete((o, e) -> live.remove(id, committed));
      return new Submission(Optional.of(id), committed);
    }
    return Submission.unjournaled(f);
  }

  private static ActionRequest withLookup(ActionRequest action, Route route, Map<String, String> pathParameters, Optional<String> key,
      Optional<String> reference) {
    if (route.lookup().isEmpty()) {
      return action;
    }
    Map<String, String> values = new java.util.HashMap<>(pathParameters);
    key.ifPresent(k -> values.put("idempotency_key", k));
    reference.ifPresent(r -> values.put("external_reference", r));
    return action.withLookup(new LookupPlan(route.lookup().get().method(), route.lookup().get().path(), values, route.operationId()));
  }

  private void done(String taskId) {
    pendingByTask.computeIfPresent(taskId, (k, n) -> n <= 1 ? null : n - 1);
  }

  /**
   * Cancels a task: its queued and delayed calls never leave, in-flight attempts are aborted, and
   * each of its pending calls completes {@code cancelled}. Later calls of the task are refused as
   * cancelled too.
   *
   * @return how many pending calls were cancelled
   */
  public int cancel(String taskId) {
    Objects.requireNonNull(taskId, "taskId");
    if (writer.isPresent() && !closed) {
      writer.get().cancelTask(taskId).join(); // durable first: a restart finds the task cancelled
    }
    return cancelInEngines(taskId) + cancelHeld(taskId);
  }

  /**
   * Actions of the task held for per-call approval are cancelled too: nothing was sent, and an
   * approval that comes later finds the action cancelled instead of sending it.
   */
  /** The approval escalation of a withdrawn action is closed as rejected by Sluice, so no one is asked to decide it. */
  private void closeApproval(JournalWriter w, ActionId action, Instant now) {
    if (escalations.isEmpty()) {
      return;
    }
    for (EscalationRecord e : w.journal().escalations()) {
      if (e.actionId().equals(action) && e.decision().isEmpty()) {
        try {
          EscalationRecord decided = w.call(() -> w.journal().decide(e.id(),
              new Decision(DecisionOption.REJECT, "sluice", "the task was cancelled while the action awaited approval", false, now))).join();
          escalations.get().decided(decided);
          auditDecision(decided, w.journal().action(action).map(ActionRecord::taskId).orElse(""), now);
        } catch (java.util.concurrent.CompletionException decidedMeanwhile) {
          // an operator decided it at the same moment: that record stands
        }
      }
    }
  }

  /** The audit log's {@code decision_recorded}: which escalation, whose action, the option, who and why. */
  private void auditDecision(EscalationRecord decided, String taskId, Instant now) {
    Decision d = decided.decision().orElseThrow();
    audit.ifPresent(t -> {
      Map<String, Object> f = new LinkedHashMap<>();
      f.put("escalation", decided.id().toString());
      f.put("task", taskId);
      f.put("action", decided.actionId().toString());
      f.put("trigger", decided.trigger().code());
      f.put("option", d.option().code());
      f.put("by", d.by());
      f.put("reason", d.reason());
      f.put("confirmation", d.confirmation());
      t.event("decision_recorded", now, f);
    });
  }

  private int cancelHeld(String taskId) {
    if (writer.isEmpty() || closed) {
      return 0;
    }
    JournalWriter w = writer.get();
    int n = 0;
    for (Map.Entry<ActionId, CompletableFuture<Outcome>> h : Map.copyOf(held).entrySet()) {
      Optional<ActionRecord> a = w.journal().action(h.getKey());
      if (a.isEmpty() || !a.get().taskId().equals(taskId) || a.get().state() != ActionState.AWAITING_APPROVAL) {
        continue;
      }
      try {
        w.decide(h.getKey(), ActionState.AWAITING_APPROVAL, ActionState.CANCELLED, ActionChanges.none().reason("task cancelled while awaiting approval"))
            .join();
      } catch (java.util.concurrent.CompletionException e) {
        continue; // decided meanwhile (approved or rejected): that decision stands
      }
      Instant now = scheduler.now();
      closeApproval(w, h.getKey(), now);
      h.getValue().complete(new Outcome(taskId, 0, OutcomeCode.CANCELLED, false, false, 0, Duration.ZERO, OptionalInt.empty(), Optional.empty(),
          "nothing was sent; the task is cancelled", "task cancelled while action " + h.getKey() + " awaited an operator's approval",
          Optional.empty(), Optional.empty(), false, now, false));
      n++;
    }
    return n;
  }

  private int cancelInEngines(String taskId) {
    int n = 0;
    for (Lane lane : lanes.values()) {
      n += lane.engine().cancel(taskId);
    }
    return n;
  }

  /**
   * Graceful stop, first half: no further attempt leaves (queued and delayed calls stay where they
   * are — with a journal, open for the next start to resume), while attempts already in flight run
   * to their end for up to {@code bound} and their outcomes are handled and journaled as usual (the
   * journal has committed them when this returns true).
   * Call {@link #close()} afterwards. Idempotent.
   *
   * @return true when no attempt was still in flight at the end
   */
  public boolean stopSending(Duration bound) {
    Objects.requireNonNull(bound, "bound");
    CompletableFuture<?>[] idle = lanes.values().stream().map(l -> l.engine().stopSending()).toArray(CompletableFuture[]::new);
    long end = System.nanoTime() + Math.max(0, bound.toNanos());
    try {
      CompletableFuture.allOf(idle).get(Math.max(0, bound.toMillis()), java.util.concurrent.TimeUnit.MILLISECONDS);
      if (writer.isPresent()) {
        // What the last attempts changed is committed before this returns: action() then reads final states.
        writer.get().barrier().get(Math.max(0, end - System.nanoTime()), java.util.concurrent.TimeUnit.NANOSECONDS);
      }
      return true;
    } catch (java.util.concurrent.TimeoutException e) {
      return false;
    } catch (java.util.concurrent.ExecutionException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  /**
   * Appends an event that is not an action's step to the audit log, when one is configured (e.g.
   * the gateway's refused authentication). Fields must carry no secret: never a token, header
   * value or body.
   *
   * @return whether an audit log received it
   */
  public boolean auditEvent(String event, Map<String, ?> fields) {
    Objects.requireNonNull(event, "event");
    Objects.requireNonNull(fields, "fields");
    if (audit.isEmpty() || closed) {
      return false;
    }
    audit.get().event(event, scheduler.now(), new LinkedHashMap<>(fields));
    return true;
  }

  /** Every provider scope's record, in the seed's shape, ordered by provider then scope. */
  public List<ScopeRecord> scopes() {
    return registry.snapshot();
  }

  /**
   * The calls waiting in a provider's scope queue, in dispatch order, with their due times.
   *
   * @throws NoSuchElementException when the provider is not configured
   */
  public List<QueuedRequest> queue(String provider) {
    return lane(provider).engine().queue(ProviderSetup.scopeId(lane(provider).provider()));
  }

  /** Attempts of a provider's scope in flight now. */
  public int inFlight(String provider) {
    return lane(provider).engine().inFlight(ProviderSetup.scopeId(lane(provider).provider()));
  }

  private Lane lane(String provider) {
    Lane lane = lanes.get(Objects.requireNonNull(provider, "provider"));
    if (lane == null) {
      throw new NoSuchElementException("provider '" + provider + "' is not configured; configured: " + lanes.keySet());
    }
    return lane;
  }

  /** Cancels every pending call, then stops the transport and scheduler this Sluice created. Idempotent. */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    // The journal stops first: what is still open stays open there, for the next start to resume,
    // instead of being recorded as cancelled by the shutdown.
    writer.ifPresent(JournalWriter::close);
    audit.ifPresent(dev.sluice.core.internal.AuditTrail::close); // drains its queue; the AuditLog itself is the caller's
    Instant closedAt = scheduler.now();
    for (Map.Entry<ActionId, CompletableFuture<Outcome>> h : Map.copyOf(held).entrySet()) {
      // The journal keeps it awaiting approval; the next start holds it again.
      h.getValue().complete(new Outcome("", 0, OutcomeCode.CANCELLED, false, false, 0, Duration.ZERO, OptionalInt.empty(), Optional.empty(),
          "nothing was sent; the action stays awaiting approval in the journal and the next start holds it again",
          "Sluice closed while action " + h.getKey() + " awaited an operator's approval", Optional.empty(), Optional.empty(), false, closedAt, false));
    }
    for (String task : new ArrayList<>(pendingByTask.keySet())) {
      cancelInEngines(task);
    }
    for (AutoCloseable c : owned) {
      try {
        c.close();
      } catch (Exception e) {
        // Closing must go on for the rest; nothing useful can be done with the failure here.
        LOG.warn("could not close {}: {}", c.getClass().getSimpleName(), e.toString());
      }
    }
  }

  /**
   * For tests: stops as if the process died now — nothing more reaches the journal (queued journal
   * changes are dropped, no further attempt is sent) — then closes like {@link #close()}. The
   * journal keeps whatever was committed, for a new Sluice to resume.
   */
  public void crashForTesting() {
    writer.ifPresent(JournalWriter::halt);
    close();
  }


  /**
   * Completes once every journal change queued before this call is committed — and with it every
   * attempt whose start was queued has been handed to the transport. At once without a journal.
   * For tests on virtual time, which must not move the clock while an attempt is still on its way.
   */
  public CompletableFuture<Void> journalFlushed() {
    return writer.map(JournalWriter::barrier).orElseGet(() -> CompletableFuture.completedFuture(null));
  }

  // ---------------------------------------------------------------- escalations (issue 7)

  /**
   * Registers a listener told of each new escalation once it is durable (for metrics or a
   * notifier of the caller's). It runs on the journal's thread: keep it short, and never call
   * back into this Sluice from it. A listener that throws is logged and ignored. No-op without a journal.
   */
  public void onEscalation(java.util.function.Consumer<Escalation> listener) {
    Objects.requireNonNull(listener, "listener");
    escalations.ifPresent(e -> e.onRaised(listener));
  }

  /** Every escalation in the journal, oldest first, each with its dossier. Empty without a journal. */
  public List<Escalation> escalations() {
    return escalations.map(e -> writer.get().journal().escalations().stream().map(e::view).toList()).orElse(List.of());
  }

  /**
   * The escalations raised for one action, oldest first, each with its dossier. Only theirs are
   * built: a dossier reads the action and its attempts from the journal, so asking {@link
   * #escalations()} and filtering costs two reads per escalation ever raised.
   */
  public List<Escalation> escalationsOf(ActionId actionId) {
    Objects.requireNonNull(actionId, "actionId");
    return escalations.map(e -> writer.get().journal().escalations().stream().filter(r -> r.actionId().equals(actionId)).map(e::view).toList())
        .orElse(List.of());
  }

  /** One escalation with its dossier (built from the journal now), if it exists. */
  public Optional<Escalation> escalation(EscalationId id) {
    Objects.requireNonNull(id, "id");
    return escalations.flatMap(e -> writer.get().journal().escalation(id).map(e::view));
  }

  /**
   * The stored request body of an escalation's action, for an operator who needs to see it: a
   * separate, audited action ({@code escalation_body_viewed} with who and why). Empty when the
   * journal did not keep the bytes (over its cap) or the escalation does not exist.
   */
  public Optional<byte[]> escalationBody(EscalationId id, String by, String reason) {
    Objects.requireNonNull(id, "id");
    DecisionRequest who = DecisionRequest.of(DecisionOption.ACKNOWLEDGE, by, reason); // checks by and reason
    Optional<EscalationRecord> r = escalations.flatMap(e -> writer.get().journal().escalation(id));
    Optional<ActionRecord> a = r.flatMap(x -> writer.get().journal().action(x.actionId()));
    if (a.isEmpty()) {
      return Optional.empty();
    }
    audit.ifPresent(t -> {
      Map<String, Object> f = new LinkedHashMap<>();
      f.put("escalation", id.toString());
      f.put("action", a.get().actionId().toString());
      f.put("task", a.get().taskId());
      f.put("by", who.by());
      f.put("reason", who.reason());
      f.put("size", a.get().payloadSize());
      f.put("sha256", a.get().payloadDigest());
      f.put("kept", a.get().payloadKept());
      t.event("escalation_body_viewed", scheduler.now(), f);
    });
    return a.get().keptPayload();
  }

  /**
   * Records an operator's decision on an open escalation — durably, with who and why, in the
   * journal and the audit log ({@code decision_recorded}) — and then carries it out:
   * {@code query_existing} queues the route's look-up through the scope's gates (nothing resent);
   * {@code retry_same_key} queues the stored request with its original key and a fresh class
   * budget; {@code cancel} cancels the action and its task; {@code send_new} (needs {@code confirm})
   * records and queues a new action with a new key; {@code approve} queues a held action, {@code
   * reject} cancels it; {@code acknowledge} changes nothing.
   *
   * @throws DecisionException when the escalation is unknown or decided, the option is not offered,
   *     or {@code send_new} lacks its confirmation; nothing was recorded then
   * @throws IllegalStateException without a journal, or after {@link #close()}
   */
  public DecisionResult decide(EscalationId id, DecisionRequest request) {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(request, "request");
    if (closed) {
      throw new IllegalStateException("this Sluice is closed");
    }
    Escalations esc = escalations.orElseThrow(() -> new IllegalStateException("escalations need a journal; this Sluice has none"));
    JournalWriter w = writer.orElseThrow();
    Journal journal = w.journal();
    EscalationRecord rec = journal.escalation(id)
        .orElseThrow(() -> new DecisionException(DecisionException.Kind.NOT_FOUND, "there is no escalation " + id));
    if (rec.decision().isPresent()) {
      throw new DecisionException(DecisionException.Kind.ALREADY_DECIDED, "escalation " + id + " is already decided: "
          + rec.decision().get().option().code() + " by " + rec.decision().get().by() + " at " + rec.decision().get().at());
    }
    if (!rec.options().contains(request.option())) {
      throw new DecisionException(DecisionException.Kind.NOT_OFFERED, "escalation " + id + " does not offer " + request.option().code()
          + "; offered: " + String.join(", ", rec.options().stream().map(DecisionOption::code).toList()));
    }
    if (request.option() == DecisionOption.SEND_NEW && !request.confirm()) {
      throw new DecisionException(DecisionException.Kind.CONFIRMATION_REQUIRED, "send_new may create a second external effect at the provider;"
          + " it needs an explicit confirmation (confirm: true, or --confirm)");
    }
    ActionRecord a = journal.action(rec.actionId()).orElseThrow();
    Lane lane = lanes.get(a.scope().provider());
    if (lane == null && request.option() != DecisionOption.CANCEL && request.option() != DecisionOption.REJECT
        && request.option() != DecisionOption.ACKNOWLEDGE) {
      throw new DecisionException(DecisionException.Kind.NOT_OFFERED, "provider '" + a.scope().provider() + "' is no longer in the policy;"
          + " only cancel, reject or acknowledge can be decided");
    }
    // Everything that can refuse the decision is checked before it is recorded: a refused decision
    // leaves no record (review: an approval of a cancelled task's action was recorded, then refused).
    ActionState needed = switch (request.option()) {
      case QUERY_EXISTING, RETRY_SAME_KEY, SEND_NEW -> ActionState.ESCALATED;
      case APPROVE, REJECT -> ActionState.AWAITING_APPROVAL;
      case CANCEL, ACKNOWLEDGE -> null;
    };
    if (needed != null) {
      requireState(a, needed, id);
    }
    if (journal.isCancelled(a.taskId()) && request.option() != DecisionOption.CANCEL && request.option() != DecisionOption.REJECT
        && request.option() != DecisionOption.ACKNOWLEDGE) {
      // After a restart the engine does not know the task was cancelled; the journal does. Nothing
      // more of a cancelled task is sent, not even a look-up that could end in a resend.
      throw new DecisionException(DecisionException.Kind.NOT_OFFERED, "task " + a.taskId() + " was cancelled: nothing more of it is sent;"
          + " decide cancel or acknowledge" + a.idempotencyKey().map(k -> " (the provider can be asked about idempotency key " + k + " directly)")
          .orElse(""));
    }
    Instant now = scheduler.now();
    Decision d = new Decision(request.option(), request.by(), request.reason(), request.confirm(), now);
    EscalationRecord decided;
    try {
      decided = w.call(() -> journal.decide(id, d)).join();
    } catch (java.util.concurrent.CompletionException e) {
      if (e.getCause() instanceof IllegalStateException) {
        throw new DecisionException(DecisionException.Kind.ALREADY_DECIDED, e.getCause().getMessage());
      }
      throw e;
    }
    esc.decided(decided);
    auditDecision(decided, a.taskId(), now);
    Carried c = carryOut(w, journal, id, a, lane, request, now);
    Optional<ActionId> acting = c.acting();
    Optional<CompletableFuture<Outcome>> outcome = c.outcome();
    return new DecisionResult(esc.view(journal.escalation(id).orElseThrow()), acting, outcome);
  }

  /** What carrying out a decision started: the action doing it, and its outcome. */
  private record Carried(Optional<ActionId> acting, Optional<CompletableFuture<Outcome>> outcome) {}

  /**
   * Carries out a recorded decision on its action: the second half of {@link #decide}, and what a
   * restart re-applies when the process died between recording a decision and acting on it.
   */
  private Carried carryOut(JournalWriter w, Journal journal, EscalationId id, ActionRecord a, Lane lane, DecisionRequest request, Instant now) {
    String byWhom = request.option().code() + " by " + request.by() + " on " + id + ": " + request.reason();
    Optional<ActionId> acting = Optional.empty();
    Optional<CompletableFuture<Outcome>> outcome = Optional.empty();
    switch (request.option()) {
      case QUERY_EXISTING -> {
        requireState(a, ActionState.ESCALATED, id);
        CompletableFuture<Outcome> f = lane.engine().resume(rebuild(a, lane, a.idempotencyKey(), Optional.empty()), a.attemptsUsed(), a.waited(),
            now, true);
        outcome = Optional.of(track(a.actionId(), a.taskId(), f));
        acting = Optional.of(a.actionId());
      }
      case RETRY_SAME_KEY -> {
        requireState(a, ActionState.ESCALATED, id);
        w.decide(a.actionId(), ActionState.ESCALATED, ActionState.QUEUED, ActionChanges.none().dueAt(now)).join();
        CompletableFuture<Outcome> f = lane.engine().resume(rebuild(a, lane, a.idempotencyKey(), Optional.empty()), 0, Duration.ZERO, now, false);
        outcome = Optional.of(track(a.actionId(), a.taskId(), f));
        acting = Optional.of(a.actionId());
      }
      case CANCEL -> {
        if (a.state() == ActionState.ESCALATED) {
          w.decide(a.actionId(), ActionState.ESCALATED, ActionState.CANCELLED, ActionChanges.none().reason("cancelled: " + byWhom)).join();
        }
        cancel(a.taskId());
      }
      case SEND_NEW -> {
        requireState(a, ActionState.ESCALATED, id);
        Provider p = lane.provider();
        RouteMatch match = p.classify(a.method(), a.target());
        Optional<String> key = a.idempotencyKey().isPresent() || p.idempotencyHeader().isPresent() && a.write()
            ? Optional.of("sk_" + Ulid.generate(now)) : Optional.empty();
        byte[] body = a.payload();
        Optional<String> reference = Optional.empty();
        if (match.route().externalReference().isPresent()) {
          String fresh = "sr_" + Ulid.generate(now);
          Optional<ExternalReferences.Filled> filled = ExternalReferences.fill(ExternalReferences.without(body, match.route().externalReference().get()),
              match.route().externalReference().get(), () -> fresh);
          if (filled.isPresent()) {
            body = filled.get().body();
            reference = Optional.of(filled.get().reference());
          }
        }
        ActionRequest req = new ActionRequest(a.taskId(), a.priority(), a.scope(), a.requestClass(), a.method(), a.routeTemplate(), a.target(),
            a.headers(), body, false, key, match.route().lookup().isPresent());
        req = withLookup(req, match.route(), match.pathParameters(), key, reference);
        NewAction.Builder nb = NewAction.from(req, now).externalReference(reference.orElse(null));
        a.deadline().ifPresent(nb::deadline);
        ActionId fresh = w.record(nb.build()).actionId();
        req = req.withJournalId(fresh);
        w.decide(a.actionId(), ActionState.ESCALATED, ActionState.CANCELLED, ActionChanges.none().reason("superseded by action " + fresh
            + " (" + byWhom + ")")).join();
        ActionRequest sent = req;
        audit.ifPresent(t -> t.requested(sent, now));
        pendingByTask.merge(a.taskId(), 1, Integer::sum);
        CompletableFuture<Outcome> f = lane.engine().submit(req);
        f.whenComplete((o, e) -> done(a.taskId()));
        outcome = Optional.of(track(fresh, a.taskId(), f));
        acting = Optional.of(fresh);
      }
      case ACKNOWLEDGE -> {
        // nothing changes: the decision is the record
      }
      case APPROVE -> {
        requireState(a, ActionState.AWAITING_APPROVAL, id);
        w.decide(a.actionId(), ActionState.AWAITING_APPROVAL, ActionState.QUEUED, ActionChanges.none().dueAt(now)).join();
        if (journal.isCancelled(a.taskId())) {
          lane.engine().cancel(a.taskId());
        }
        a.deadline().ifPresent(dl -> lane.engine().setTaskBudget(a.taskId(), TaskBudget.deadline(dl)));
        CompletableFuture<Outcome> f = lane.engine().resume(rebuild(a, lane, a.idempotencyKey(), Optional.empty()), 0, Duration.ZERO, now, false);
        CompletableFuture<Outcome> committed = track(a.actionId(), a.taskId(), f);
        CompletableFuture<Outcome> waiting = hold(a.actionId());
        committed.whenComplete((o, e) -> {
          if (e != null) {
            waiting.completeExceptionally(e);
          } else {
            waiting.complete(o);
          }
        });
        outcome = Optional.of(waiting);
        acting = Optional.of(a.actionId());
      }
      case REJECT -> {
        requireState(a, ActionState.AWAITING_APPROVAL, id);
        w.decide(a.actionId(), ActionState.AWAITING_APPROVAL, ActionState.CANCELLED, ActionChanges.none().reason("rejected: " + byWhom)).join();
        Outcome o = new Outcome(a.taskId(), 0, OutcomeCode.CANCELLED, false, false, 0, Duration.ZERO, OptionalInt.empty(), Optional.empty(),
            "nothing was sent; do not send this action again without a new approval", "rejected by an operator (" + byWhom + ")", Optional.empty(),
            Optional.empty(), false, now, false);
        CompletableFuture<Outcome> waiting = hold(a.actionId());
        waiting.complete(o);
        outcome = Optional.of(waiting);
      }
    }
    return new Carried(acting, outcome);
  }

  private static void requireState(ActionRecord a, ActionState expected, EscalationId id) {
    if (a.state() != expected) {
      throw new DecisionException(DecisionException.Kind.NOT_OFFERED, "action " + a.actionId() + " of escalation " + id + " is "
          + a.state().code() + " now, not " + expected.code() + "; this option no longer applies");
    }
  }

  /** The engine's request for a journaled action, as recovery rebuilds it. */
  private ActionRequest rebuild(ActionRecord r, Lane lane, Optional<String> key, Optional<String> reference) {
    RouteMatch match = lane.provider().classify(r.method(), r.target());
    ActionRequest action = new ActionRequest(r.taskId(), r.priority(), r.scope(), r.requestClass(), r.method(), r.routeTemplate(), r.target(),
        r.headers(), r.payload(), false, key, match.route().lookup().isPresent());
    Map<String, String> params = new java.util.HashMap<>(match.pathParameters());
    r.providerOperationId().ifPresent(op -> params.put("operation_id", op));
    return withLookup(action, match.route(), params, key, reference.or(r::externalReference)).withJournalId(r.actionId());
  }

  /** The caller-facing future of a journaled action run for a decision. */
  private CompletableFuture<Outcome> track(ActionId id, String taskId, CompletableFuture<Outcome> f) {
    JournalWriter w = writer.orElseThrow();
    if (!f.isDone()) {
      pendingByTask.merge(taskId, 1, Integer::sum);
      f.whenComplete((o, e) -> done(taskId));
    }
    CompletableFuture<Outcome> committed = f.thenCompose(o -> w.barrier().thenApplyAsync(v -> annotate(id, o)));
    live.putIfAbsent(id, committed);
    committed.whenComplete((o, e) -> live.remove(id, committed));
    return committed;
  }

  /** The pending future of an action held for approval (one per action). */
  private CompletableFuture<Outcome> hold(ActionId id) {
    CompletableFuture<Outcome> f = held.computeIfAbsent(id, k -> new CompletableFuture<>());
    live.put(id, f);
    f.whenComplete((o, e) -> {
      held.remove(id, f);
      live.remove(id, f);
    });
    return f;
  }

  private Submission holdForApproval(ActionRequest action, Route route, Provider p, Instant now) {
    ActionId id = action.journalId().orElseThrow();
    CompletableFuture<Outcome> f = hold(id);
    escalations.orElseThrow().raise(id, Trigger.APPROVAL_REQUIRED, "route " + route.method() + " " + route.path().template() + " of provider '"
        + p.id() + "' is approval: per_call; the action is held, nothing was sent, until an operator approves or rejects it");
    return new Submission(Optional.of(id), f);
  }

  private void recordGoal(JournalWriter w, String taskId, Optional<String> goal) {
    if (goal.isPresent() && goalsRecorded.add(taskId)) {
      try {
        w.journal().recordTaskGoal(taskId, goal.get());
      } catch (RuntimeException e) {
        LOG.warn("could not record the goal of task {}: {}", taskId, e.toString());
      }
    }
  }

  /** An outcome whose action was handed to a person says so, and names the escalation. */
  private Outcome annotate(ActionId id, Outcome o) {
    if (o.succeeded() || escalations.isEmpty()) {
      return o;
    }
    Optional<EscalationId> e = escalations.get().openFor(id);
    if (e.isEmpty()) {
      return o;
    }
    return new Outcome(o.taskId(), o.actionId(), o.outcome(), o.requestSent(), o.responseReceived(), o.attempts(), o.waited(), o.lastStatus(),
        o.nextAllowedAt(), "an operator decides on escalation " + e.get() + " (sluice escalations show " + e.get()
            + "); do not repeat this call, and never under a new idempotency key", o.reason() + "; escalated to an operator as " + e.get(),
        o.response(), o.fingerprint(), o.coalesced(), o.finishedAt(), o.reconciled());
  }

  // ---------------------------------------------------------------- restart recovery

  private void recover() {
    JournalWriter w = writer.orElseThrow();
    Journal journal = w.journal();
    Instant now = scheduler.now();
    for (ActionRecord r : journal.openActions()) {
      try {
        recoverOne(w, journal, r, now);
      } catch (RuntimeException e) {
        org.slf4j.LoggerFactory.getLogger(Sluice.class).error("could not resume action {}: {}", r.actionId(), e.toString());
      }
    }
    // Actions held for per-call approval stay held: a pending future again, nothing sent.
    for (EscalationRecord e : journal.escalations()) {
      if (e.decision().isEmpty() && e.trigger() == Trigger.APPROVAL_REQUIRED
          && journal.action(e.actionId()).map(a -> a.state() == ActionState.AWAITING_APPROVAL).orElse(false)) {
        hold(e.actionId());
      }
    }
    // A decision recorded just before the process died, and not acted on: act on it now (review:
    // the action stayed escalated or held for good, and a new decision was refused as a repeat).
    for (EscalationRecord e : journal.escalations()) {
      try {
        reapply(w, journal, e, now);
      } catch (RuntimeException ex) {
        LOG.error("could not carry out the decision on escalation {}: {}", e.id(), ex.toString());
      }
    }
  }

  private void reapply(JournalWriter w, Journal journal, EscalationRecord e, Instant now) {
    if (e.decision().isEmpty()) {
      return;
    }
    Decision d = e.decision().get();
    Optional<ActionRecord> found = journal.action(e.actionId());
    if (found.isEmpty()) {
      return;
    }
    ActionRecord a = found.get();
    boolean undone = switch (d.option()) {
      case QUERY_EXISTING, RETRY_SAME_KEY, CANCEL -> a.state() == ActionState.ESCALATED;
      case APPROVE, REJECT -> a.state() == ActionState.AWAITING_APPROVAL;
      case SEND_NEW, ACKNOWLEDGE -> false;
    };
    if (!undone) {
      if (d.option() == DecisionOption.SEND_NEW && a.state() == ActionState.ESCALATED) {
        // Not re-applied: whether the new action was recorded before the stop cannot be told here,
        // and a second new action could be a second effect. A person looks.
        LOG.warn("escalation {} was decided send_new but action {} is still escalated: check whether a new action was recorded before"
            + " deciding again", e.id(), a.actionId());
      }
      return;
    }
    Lane lane = lanes.get(a.scope().provider());
    if (lane == null) {
      LOG.warn("escalation {}: provider '{}' is no longer in the policy; its decision {} is not carried out", e.id(), a.scope().provider(),
          d.option().code());
      return;
    }
    if (journal.isCancelled(a.taskId())) {
      lane.engine().cancel(a.taskId()); // a cancelled task stays cancelled: whatever the decision, nothing of it is sent
    }
    LOG.info("escalation {}: carrying out {} by {}, recorded before the last stop", e.id(), d.option().code(), d.by());
    carryOut(w, journal, e.id(), a, lane, new DecisionRequest(d.option(), d.by(), d.reason(), d.confirmation()), now);
  }

  private void recoverOne(JournalWriter w, Journal journal, ActionRecord r, Instant now) {
    Lane lane = lanes.get(r.scope().provider());
    if (lane == null || !ProviderSetup.scopeId(lane.provider()).equals(r.scope())) {
      LOG.warn("action {} belongs to {}, which the policy no longer has; left {}", r.actionId(), r.scope(),
          r.state().code());
      return;
    }
    List<AttemptRecord> attempts = journal.attempts(r.actionId());
    Optional<AttemptRecord> last = attempts.isEmpty() ? Optional.empty() : Optional.of(attempts.get(attempts.size() - 1));
    if (last.isPresent() && !last.get().finished()) {
      journal.finishAttempt(r.actionId(), last.get().number(), AttemptEnd.abandoned(), now, Headers.empty());
    }
    ActionState state = r.state();
    boolean reconcile;
    switch (state) {
      case IN_FLIGHT -> {
        boolean sent = attempts.stream().anyMatch(a -> a.kind() == AttemptKind.SEND);
        // A write that was in flight may have taken effect, even if its answer was journaled and
        // the final state was not: look it up. A read, or a write whose send never started, queues again.
        reconcile = r.write() && sent;
        ActionState to = reconcile ? ActionState.OUTCOME_UNKNOWN : ActionState.QUEUED;
        state = journal.transition(r.actionId(), ActionState.IN_FLIGHT, to, reconcile ? ActionChanges.none() : ActionChanges.none().dueAt(now), now)
            .action().state();
      }
      case OUTCOME_UNKNOWN, RECONCILING -> reconcile = true;
      default -> reconcile = false;
    }
    w.seed(r.actionId(), state);
    Provider p = lane.provider();
    RouteMatch match = p.classify(r.method(), r.target());
    ActionRequest action = new ActionRequest(r.taskId(), r.priority(), r.scope(), r.requestClass(), r.method(), r.routeTemplate(), r.target(),
        r.headers(), r.payload(), false, r.idempotencyKey(), match.route().lookup().isPresent());
    action = withLookup(action, match.route(), match.pathParameters(), r.idempotencyKey(), r.externalReference()).withJournalId(r.actionId());
    r.deadline().ifPresent(d -> lane.engine().setTaskBudget(r.taskId(), TaskBudget.deadline(d)));
    if (journal.isCancelled(r.taskId())) {
      lane.engine().cancel(r.taskId());
    }
    if (!r.payloadKept() && !reconcile) {
      w.finished(r.actionId(), OutcomeCode.REFUSED, "the payload was over the journal's cap and was not kept, so it cannot be sent after a restart",
          OptionalInt.empty(), r.waited(), Optional.empty());
      return;
    }
    pendingByTask.merge(r.taskId(), 1, Integer::sum);
    CompletableFuture<Outcome> f = lane.engine().resume(action, r.attemptsUsed(), r.waited(), r.dueAt(), reconcile);
    f.whenComplete((o, e) -> done(r.taskId()));
    CompletableFuture<Outcome> committed = f.thenCompose(o -> w.barrier().thenApplyAsync(v -> annotate(r.actionId(), o)));
    recovered.put(r.actionId(), committed);
    live.put(r.actionId(), committed);
    committed.whenComplete((o, e) -> live.remove(r.actionId(), committed));
  }

  private static CompletableFuture<Outcome> refused(Call call, Instant now, String reason, String nextSafe) {
    return CompletableFuture.completedFuture(new Outcome(call.taskId(), 0, OutcomeCode.REFUSED, false, false, 0, Duration.ZERO,
        OptionalInt.empty(), Optional.empty(), nextSafe, reason, Optional.empty(), Optional.empty(), false, now, false));
  }

  private static Headers without(Headers h, String name) {
    if (!h.contains(name)) {
      return h;
    }
    String lower = name.toLowerCase(Locale.ROOT);
    Headers.Builder b = Headers.builder();
    h.asMap().forEach((n, vs) -> {
      if (!n.equals(lower)) {
        vs.forEach(v -> b.add(n, v));
      }
    });
    return b.build();
  }

  /**
   * Configures a {@link Sluice}. Defaults: the wall clock ({@link SystemScheduler}), the HTTP
   * transport ({@link JettyTransport} with {@link TransportSettings#defaults()}) built from the
   * policy's providers and their secrets, secrets from the process environment, request bodies up to
   * {@link #DEFAULT_MAX_REQUEST_BYTES}, an unseeded jitter source. Not thread-safe.
   */
  public static final class Builder {
    private Policy policy;
    private Scheduler scheduler;
    private Transport transport;
    private TransportSettings transportSettings = TransportSettings.defaults();
    private Function<String, Optional<String>> secrets = name -> Optional.ofNullable(System.getenv(name));
    private Long seed;
    private int maxRequestBytes = DEFAULT_MAX_REQUEST_BYTES;
    private Journal journal;
    private dev.sluice.core.audit.AuditLog auditLog;
    private boolean auditFromPolicy;
    private Function<String, Optional<String>> auditEnv;
    /** The environment variable naming the audit checkpoint signing key file. */
    public static final String AUDIT_KEY_FILE_ENV = "SLUICE_AUDIT_SIGNING_KEY_FILE";
    /** The environment variable holding the audit checkpoint signing key itself (PEM). */
    public static final String AUDIT_KEY_ENV = "SLUICE_AUDIT_SIGNING_KEY";
    private boolean journalFromPolicy;
    private java.util.function.UnaryOperator<Transport> transportDecorator = java.util.function.UnaryOperator.identity();

    private Builder() {}

    /**
     * Journals every action in {@code j} (durable before the first send) and resumes its open
     * actions at {@link #build()}. Default: none, nothing survives a restart. Not closed by Sluice.
     */
    public Builder journal(Journal j) {
      this.journal = Objects.requireNonNull(j, "journal");
      return this;
    }

    /**
     * Writes the audit trail (DESIGN.md §3 rule 13) of every call to {@code log}: action_requested,
     * action_sent, action_result, retry_scheduled, reconciliation_required, escalated, cancelled,
     * circuit_opened. The engine's reactions (retry_scheduled…) are recorded for journaled actions
     * only. Default: none. Not closed by Sluice (close it after Sluice, for its final checkpoint).
     */
    public Builder audit(dev.sluice.core.audit.AuditLog log) {
      this.auditLog = Objects.requireNonNull(log, "log");
      return this;
    }

    /**
     * At {@link #build()}, opens the audit log the policy's {@code audit} block describes (its
     * defaults without one: {@code <data_dir>/audit}) and closes it with Sluice (writing the final
     * signed checkpoint). Checkpoints are signed with the Ed25519 key (PKCS#8 PEM) the block names
     * ({@code signing_key_env} / {@code signing_key_file}), else the one in the file named by the
     * environment variable {@value #AUDIT_KEY_FILE_ENV}, or given inline in {@value #AUDIT_KEY_ENV};
     * without any the log is chained but unsigned. Payloads are encrypted with the AES-256 key the
     * block names ({@code encryption_key_env} / {@code encryption_key_file}), else {@value
     * #AUDIT_ENCRYPTION_KEY_FILE_ENV} / {@value #AUDIT_ENCRYPTION_KEY_ENV}; without any, in clear.
     * {@link Sluice#load(Path)} does this when the policy has an {@code audit} block.
     *
     * @throws IllegalStateException at build, when the key cannot be read (the message never quotes it)
     */
    public Builder auditFromPolicy() {
      return auditFromPolicy(name -> Optional.ofNullable(System.getenv(name)));
    }

    /** {@link #auditFromPolicy()}, reading the key's variables through {@code env} (for tests). */
    public Builder auditFromPolicy(Function<String, Optional<String>> env) {
      this.auditFromPolicy = true;
      this.auditEnv = Objects.requireNonNull(env, "env");
      return this;
    }

    /**
     * At {@link #build()}, opens the journal the policy names (its {@code store}, else the embedded
     * SQLite journal in {@code data_dir}, found through {@link JournalFactory}) and closes it with
     * Sluice. What {@link Sluice#load(Path)} does; for callers that build the policy themselves.
     */
    public Builder journalFromPolicy() {
      this.journalFromPolicy = true;
      return this;
    }

    /**
     * Wraps the transport (the HTTP one this builder creates, or the one given) before the engines
     * use it, e.g. to count attempts for metrics. The wrapper must keep the {@link Transport}
     * contract (return promptly, never retry). Default: none.
     */
    public Builder transportDecorator(java.util.function.UnaryOperator<Transport> decorator) {
      this.transportDecorator = Objects.requireNonNull(decorator, "transportDecorator");
      return this;
    }

    /** The policy to enforce (required). */
    public Builder policy(Policy p) {
      this.policy = Objects.requireNonNull(p, "policy");
      return this;
    }

    /** The source of time and wake-ups; default a {@link SystemScheduler} on the UTC wall clock, closed with Sluice. */
    public Builder scheduler(Scheduler s) {
      this.scheduler = Objects.requireNonNull(s, "scheduler");
      return this;
    }

    /**
     * Sends attempts with this transport instead of the HTTP one. It then also owns credentials:
     * Sluice reads no secret. Not closed by Sluice.
     */
    public Builder transport(Transport t) {
      this.transport = Objects.requireNonNull(t, "transport");
      return this;
    }

    /** Settings of the default HTTP transport (timeouts, response cap, task header). */
    public Builder transportSettings(TransportSettings s) {
      this.transportSettings = Objects.requireNonNull(s, "transportSettings");
      return this;
    }

    /** Looks up {@code secret_env} variables; default {@link System#getenv(String)}. */
    public Builder secrets(Function<String, Optional<String>> env) {
      this.secrets = Objects.requireNonNull(env, "secrets");
      return this;
    }

    /** Seeds the jitter (retry delays, reopen spread) so runs repeat exactly; default unseeded. */
    public Builder random(long seedValue) {
      this.seed = seedValue;
      return this;
    }

    /** The largest request body accepted; larger calls are refused. Default 1 MiB. */
    public Builder maxRequestBytes(int n) {
      if (n < 0) {
        throw new IllegalArgumentException("maxRequestBytes must not be negative, got " + n);
      }
      this.maxRequestBytes = n;
      return this;
    }

    /** The environment variable naming the audit payload encryption key file. */
    public static final String AUDIT_ENCRYPTION_KEY_FILE_ENV = "SLUICE_AUDIT_ENCRYPTION_KEY_FILE";
    /** The environment variable holding the audit payload encryption key itself (base64 of 32 bytes). */
    public static final String AUDIT_ENCRYPTION_KEY_ENV = "SLUICE_AUDIT_ENCRYPTION_KEY";

    /**
     * The audit log's settings: the policy's {@code audit} block (defaults without one); each key
     * from the block's reference, else from the environment variables above.
     */
    private dev.sluice.core.audit.AuditSettings auditSettings() {
      dev.sluice.core.policy.AuditPolicy a = policy.audit().orElse(dev.sluice.core.policy.AuditPolicy.DEFAULTS);
      dev.sluice.core.audit.AuditSettings settings = dev.sluice.core.audit.AuditSettings.in(a.dir(policy.dataDir()))
          .withCheckpointEvery(a.checkpointEvery()).withSegmentBytes(a.rotateMaxBytes());
      if (a.rotateMaxAge().isPresent()) {
        settings = settings.withSegmentMaxAge(a.rotateMaxAge().get());
      }
      Optional<String> signing = auditKey("audit.signing_key", a.signingKey(), AUDIT_KEY_FILE_ENV, AUDIT_KEY_ENV);
      Optional<String> encryption = auditKey("audit.encryption_key", a.encryptionKey(), AUDIT_ENCRYPTION_KEY_FILE_ENV, AUDIT_ENCRYPTION_KEY_ENV);
      String signingFrom = a.signingKey().map(dev.sluice.core.policy.SecretRef::describe)
          .orElse(auditEnv.apply(AUDIT_KEY_FILE_ENV).filter(v -> !v.isBlank()).isPresent() ? AUDIT_KEY_FILE_ENV : AUDIT_KEY_ENV);
      String encryptionFrom = a.encryptionKey().map(dev.sluice.core.policy.SecretRef::describe)
          .orElse(auditEnv.apply(AUDIT_ENCRYPTION_KEY_FILE_ENV).filter(v -> !v.isBlank()).isPresent() ? AUDIT_ENCRYPTION_KEY_FILE_ENV : AUDIT_ENCRYPTION_KEY_ENV);
      try {
        if (signing.isPresent()) {
          settings = settings.withSigningKey(dev.sluice.core.audit.AuditKeys.parsePrivate(signing.get()));
        }
      } catch (IllegalArgumentException e) {
        throw new IllegalStateException("the audit signing key from " + signingFrom + " cannot be used: " + e.getMessage());
      }
      try {
        if (encryption.isPresent()) {
          settings = settings.withEncryption(dev.sluice.core.audit.AuditCipher.parse(encryption.get()));
        }
      } catch (IllegalArgumentException e) {
        throw new IllegalStateException("the audit encryption key from " + encryptionFrom + " cannot be used: " + e.getMessage());
      }
      if (a.prunes()) {
        if (signing.isEmpty()) {
          throw new IllegalStateException("audit.retention is set but no checkpoint signing key is configured (audit.signing_key_env or "
              + "audit.signing_key_file, or " + AUDIT_KEY_FILE_ENV + "): pruning leaves a signed record of what it removed");
        }
        settings = settings.withRetention(new dev.sluice.core.audit.AuditRetention(a.keepSegments(), a.retentionMaxAge()));
      }
      return settings;
    }

    /** A key's text from its policy reference, else from the file named by {@code fileEnv}, else from {@code valueEnv}. */
    private Optional<String> auditKey(String what, Optional<dev.sluice.core.policy.SecretRef> ref, String fileEnv, String valueEnv) {
      if (ref.isPresent()) {
        return Optional.of(switch (ref.get()) {
          case dev.sluice.core.policy.SecretRef.Env e -> auditEnv.apply(e.variable()).filter(v -> !v.isBlank())
              .orElseThrow(() -> new IllegalStateException(what + ": environment variable " + e.variable() + " is not set"));
          case dev.sluice.core.policy.SecretRef.File f -> readKeyFile(what + "_file", f.path());
        });
      }
      Optional<String> file = auditEnv.apply(fileEnv).filter(v -> !v.isBlank());
      if (file.isPresent()) {
        return Optional.of(readKeyFile(fileEnv, java.nio.file.Path.of(file.get().strip())));
      }
      return auditEnv.apply(valueEnv).filter(v -> !v.isBlank());
    }

    private static String readKeyFile(String what, java.nio.file.Path path) {
      try {
        return java.nio.file.Files.readString(path, java.nio.charset.StandardCharsets.US_ASCII);
      } catch (java.io.IOException | RuntimeException e) {
        throw new IllegalStateException("the audit key file " + path + " (" + what + ") cannot be read (" + e.getClass().getSimpleName() + ")");
      }
    }

    /**
     * Starts Sluice.
     *
     * @throws IllegalStateException when no policy was given, or a provider's secret is missing,
     *     unreadable or empty (the message names the provider and the reference, never a value)
     */
    public Sluice build() {
      if (policy == null) {
        throw new IllegalStateException("a policy is required: Sluice.builder().policy(PolicyLoader.load(path))");
      }
      // The journal opens first: a busy data_dir or an unusable store fails before anything starts.
      Journal journal = this.journal;
      boolean ownJournal = false;
      if (journal == null && journalFromPolicy) {
        journal = openJournal(policy);
        ownJournal = true;
      }
      List<AutoCloseable> owned = new ArrayList<>();
      try {
        return build(journal, ownJournal, owned);
      } catch (RuntimeException e) {
        // Nothing half-started outlives a failed build: the transport, timers, audit log, journal.
        for (int k = owned.size() - 1; k >= 0; k--) {
          closeQuietly(owned.get(k));
        }
        if (ownJournal && !owned.contains(journal)) {
          closeQuietly(journal);
        }
        throw e;
      }
    }

    private static void closeQuietly(AutoCloseable c) {
      try {
        c.close();
      } catch (Exception suppressed) {
        LOG.warn("could not close {} after a failed start: {}", c.getClass().getSimpleName(), suppressed.toString());
      }
    }

    private Sluice build(Journal journal, boolean ownJournal, List<AutoCloseable> owned) {
      Transport t = transport;
      if (t == null) {
        Map<String, ProviderEndpoint> endpoints = new LinkedHashMap<>();
        for (Provider p : policy.providers().values()) {
          ProviderEndpoint ep = ProviderEndpoint.of(p.baseUrl());
          ep = Secrets.credentialHeader(p, secrets).map(ep::withCredential).orElse(ep);
          ep = p.idempotencyHeader().map(ep::withIdempotencyHeader).orElse(ep);
          endpoints.put(p.id(), ep);
        }
        JettyTransport jetty = JettyTransport.start(transportSettings, endpoints);
        owned.add(jetty);
        t = jetty;
      }
      t = Objects.requireNonNull(transportDecorator.apply(t), "the transport decorator returned null");
      Scheduler s = scheduler;
      if (s == null) {
        SystemScheduler system = new SystemScheduler(Clock.systemUTC());
        owned.add(system); // after the transport: in-flight attempts are aborted before timers stop
        s = system;
      }
      Optional<JournalWriter> writer = Optional.empty();
      Optional<dev.sluice.core.internal.AuditTrail> trail = Optional.empty();
      dev.sluice.core.audit.AuditLog auditLog = this.auditLog;
      if (auditLog == null && auditFromPolicy) {
        Scheduler clock = s;
        auditLog = dev.sluice.core.audit.AuditLog.open(auditSettings(), clock::now);
        owned.add(auditLog); // closed after the trail has drained, with a final checkpoint
      }
      if (auditLog != null) {
        Scheduler clock = s;
        JournalWriter w = journal != null ? new JournalWriter(journal, clock::now) : null;
        writer = Optional.ofNullable(w);
        dev.sluice.core.internal.AuditTrail a = new dev.sluice.core.internal.AuditTrail(auditLog,
            w != null ? w : dev.sluice.core.engine.ActionLog.NONE, clock::now);
        trail = Optional.of(a);
        t = new dev.sluice.core.internal.AuditingTransport(t, a, clock::now);
      }
      if (journal != null) {
        Scheduler clock = s;
        JournalWriter w = writer.isPresent() ? writer.get() : new JournalWriter(journal, clock::now);
        writer = Optional.of(w);
        t = new JournaledTransport(t, w);
        if (ownJournal) {
          owned.add(journal); // closed last, after the writer has drained
        }
      }
      InMemoryScopeRegistry registry = new InMemoryScopeRegistry(policy.retryAfter());
      Optional<Escalations> escalations = Optional.empty();
      if (writer.isPresent()) {
        Scheduler clock = s;
        Escalations e = new Escalations(policy, writer.get().journal(), clock::now,
            provider -> registry.snapshot().stream().filter(r -> r.provider().equals(provider)).findFirst(), trail);
        writer.get().escalations(e);
        escalations = Optional.of(e);
        if (policy.escalation().webhook().isPresent()) {
          dev.sluice.core.internal.EscalationWebhook hook = dev.sluice.core.internal.EscalationWebhook.start(policy.escalation().webhook().get(),
              secrets, s);
          owned.add(0, hook); // closed first: no notification leaves once Sluice is closing
          e.onRaised(hook::notify);
        }
      }
      if (trail.isPresent()) {
        Instant at = s.now();
        for (dev.sluice.core.policy.Agent agent : policy.agents()) {
          // The agent's standing access (the policy's grant), a separate record from approving one action.
          Map<String, Object> f = new LinkedHashMap<>();
          f.put("agent", agent.id());
          f.put("providers", String.join(",", agent.providers()));
          f.put("source", "policy");
          trail.get().event("access_granted", at, f);
        }
      }
      Map<String, Lane> lanes = new LinkedHashMap<>();
      long base = seed != null ? seed : new SplittableRandom().nextLong();
      int i = 0;
      for (Provider p : policy.providers().values()) {
        // One random source per engine: each is used under its own engine's lock only.
        Engine engine = new Engine(ProviderSetup.engineSettings(policy, p, new SplittableRandom(base + i++)), s, t, registry,
            trail.isPresent() ? trail.get() : writer.isPresent() ? writer.get() : dev.sluice.core.engine.ActionLog.NONE);
        engine.registerScope(ProviderSetup.scopeSettings(p));
        lanes.put(p.id(), new Lane(p, engine));
      }
      Sluice sluice = new Sluice(policy, s, registry, Collections.unmodifiableMap(lanes), maxRequestBytes, List.copyOf(owned), writer, trail,
          escalations);
      if (writer.isPresent()) {
        sluice.recover();
      }
      return sluice;
    }
  }
}
