package dev.sluice.core.engine;

import dev.sluice.core.policy.RequestClass;
import dev.sluice.core.classify.AttemptResult;
import dev.sluice.core.classify.Classification;
import dev.sluice.core.classify.TransportFailure;
import dev.sluice.core.classify.Verdict;
import dev.sluice.core.engine.internal.CircuitBreaker;
import dev.sluice.core.engine.internal.Fingerprints;
import dev.sluice.core.engine.internal.Pacer;
import dev.sluice.core.headers.HeaderNote;
import dev.sluice.core.headers.RateLimitReading;
import dev.sluice.core.headers.ServerDelayReading;
import dev.sluice.core.http.Headers;
import dev.sluice.core.journal.ActionId;
import dev.sluice.core.policy.OperationIdSource;
import dev.sluice.core.engine.internal.LookupAnswer;
import dev.sluice.core.retry.RetryContext;
import dev.sluice.core.retry.RetryDecision;
import dev.sluice.core.retry.ServerDelay;
import dev.sluice.core.scope.ResponseObservation;
import dev.sluice.core.scope.ScopeId;
import dev.sluice.core.scope.ScopeRecord;
import dev.sluice.core.scope.ScopeRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The deterministic core of Sluice: decides when each attempt of each action may leave (DESIGN.md
 * §2, §3 rules 1–6, 9–11).
 *
 * <p>One outbound queue per registered scope, ordered by priority (interactive first), then due
 * time, then arrival. Before every send the gates are checked in this order: task cancelled ·
 * circuit open · scope {@code next_allowed_at} · pacing bucket · concurrency slot · task and
 * action budgets. A held request waits in its queue with a visible due time ({@link #queue}); the
 * engine schedules one wake-up per scope on the {@link Scheduler} plus one budget-expiry wake-up
 * per waiting request, never a thread.
 *
 * <p>After each attempt: classify, publish to the {@link ScopeRegistry} <em>first</em>, count the
 * failure for the circuit breaker, then ask the {@link dev.sluice.core.retry.RetryPlanner} and
 * schedule the retry (it passes the gates again when it wakes).
 *
 * <p>Reconciliation (§3 rule 7): a write whose outcome is unknown is never sent again blindly.
 * When the action has a {@link LookupPlan}, a look-up (GET or HEAD) is queued through the same
 * scope gates and counted like any attempt: found → {@code succeeded} with {@link
 * Outcome#reconciled()} and the look-up's answer; proven absent (404, 410, an empty list) → resent
 * with the same key and payload if the class's {@code max_attempts} allows, else {@code
 * reconciliation_required}; a look-up that fails transiently is retried within the seed's read
 * budget ({@link #LOOKUP_BUDGET}), anything else stops at {@code reconciliation_required}. Without a
 * look-up, a write with an idempotency key is resent with that key (the provider deduplicates it)
 * within {@code max_attempts}; without either the action stops at {@code reconciliation_required}
 * (a person decides). Any other end of an action whose outcome is still unknown (budget, deadline,
 * circuit) is reported as {@code reconciliation_required} too, never as a plain failure.
 *
 * <p>Journaled actions ({@link ActionRequest#journalId()}) report their changes of state to the
 * {@link ActionLog}; {@link #resume} takes back an action a previous process left open.
 *
 * <p>Budgets: the request class's {@code max_attempts} (every attempt that reaches the transport
 * counts) and {@code max_wait} (time waiting in Sluice — queued behind gates and delayed for
 * retries — counts; time in flight does not); the task's optional deadline and attempt budget
 * ({@link #setTaskBudget}); the scope's {@code max_delayed_requests} (a request that would wait
 * beyond it, a first send or a retry, is refused at once with {@code scope_backpressure}).
 *
 * <p>Probing: a scope with no response yet, or whose last response was rate limited, lets one
 * attempt out at a time until an answer that is not a rate limit arrives; so several workers
 * starting together on an exhausted scope cost one 429, not one each, and a scope reopening after
 * a hold is tested by one request before the rest follow.
 *
 * <p>When a hold is in force, each waiting request is released at {@code next_allowed_at +
 * uniform(0, reopen spread)} (clamped to its budget), so workers told the same {@code Retry-After}
 * come back spread out; pacing and the concurrency limit spread them further.
 *
 * <p>Threading: every state change happens under one lock; the transport is called under it (it
 * must not block, see {@link Transport}), so no send can be decided or made after a 429 has been
 * published. A transport completion that arrives on the thread holding the lock (a transport that
 * answers at once) is processed before the lock is released, iteratively, never recursively.
 * Callers' futures are completed after the lock is released, so their callbacks may call the
 * engine again. Thread-safe.
 */
public final class Engine {
  /**
   * The words every {@link OutcomeCode#BUDGET_EXHAUSTED} reason has when it was the <em>task's</em>
   * attempt budget that ran out (not the request class's): how an escalation tells the two apart.
   */
  public static final String TASK_ATTEMPT_BUDGET_SPENT = "attempts of its budget";
  private static final Logger LOG = LoggerFactory.getLogger(Engine.class);
  private static final ThreadLocal<ArrayDeque<Runnable>> EFFECTS = ThreadLocal.withInitial(ArrayDeque::new);
  private static final ThreadLocal<Boolean> DRAINING = ThreadLocal.withInitial(() -> false);

  private final EngineSettings settings;
  private final Scheduler scheduler;
  private final Transport transport;
  private final ScopeRegistry registry;
  private final CircuitBreaker circuit;
  private final ReentrantLock lock = new ReentrantLock();
  private final Map<ScopeId, Lane> lanes = new HashMap<>();
  private final Map<String, TaskState> tasks = new HashMap<>();
  private final Map<CoalesceKey, Action> coalescing = new HashMap<>();
  /** Transport completions that arrived on the thread holding the lock; run before it unlocks. */
  private final ArrayDeque<Runnable> completions = new ArrayDeque<>();
  private long nextActionId = 1;
  private final ActionLog log;
  /** Guarded by the lock: false once {@link #stopSending()} was called; nothing leaves after that. */
  private boolean sending = true;
  /** Completes once sending has stopped and no attempt is in flight. */
  private final CompletableFuture<Void> idle = new CompletableFuture<>();

  /** The budget of the look-ups of one reconciliation: the seed's read class. */
  public static final RequestClass LOOKUP_BUDGET = RequestClass.SEED_READ;

  /**
   * @param settings collaborators and engine-wide settings
   * @param scheduler the only source of time and wake-ups
   * @param transport sends attempts
   * @param registry the shared scope state
   */
  public Engine(EngineSettings settings, Scheduler scheduler, Transport transport, ScopeRegistry registry) {
    this(settings, scheduler, transport, registry, ActionLog.NONE);
  }

  /**
   * @param log told about every change of state of a journaled action (under the lock; it must
   *     not block)
   */
  public Engine(EngineSettings settings, Scheduler scheduler, Transport transport, ScopeRegistry registry, ActionLog log) {
    this.log = Objects.requireNonNull(log, "log");
    this.settings = Objects.requireNonNull(settings, "settings");
    this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
    this.transport = Objects.requireNonNull(transport, "transport");
    this.registry = Objects.requireNonNull(registry, "registry");
    this.circuit = new CircuitBreaker(settings.circuit());
  }

  // ---------------------------------------------------------------- public API

  /**
   * Registers a scope; actions may only name registered scopes.
   *
   * @throws IllegalStateException when the scope is already registered (limits are fixed for the
   *     engine's life; a policy reload builds a new engine)
   */
  public void registerScope(ScopeSettings scope) {
    Objects.requireNonNull(scope, "scope");
    locked(() -> {
      if (lanes.containsKey(scope.id())) {
        throw new IllegalStateException("scope " + scope.id() + " is already registered");
      }
      lanes.put(scope.id(), new Lane(scope));
      registry.register(scope.id(), "none");
      return null;
    });
  }

  /** Sets a task's budget (deadline, attempts across its actions). Applies to actions submitted later. */
  public void setTaskBudget(String taskId, TaskBudget budget) {
    Objects.requireNonNull(taskId, "taskId");
    Objects.requireNonNull(budget, "budget");
    locked(() -> {
      task(taskId).budget = budget;
      return null;
    });
  }

  /**
   * Queues an action. The future completes with its terminal {@link Outcome}; it never completes
   * exceptionally for provider or budget reasons.
   *
   * @throws IllegalArgumentException when the action's scope is not registered
   */
  public CompletableFuture<Outcome> submit(ActionRequest request) {
    Objects.requireNonNull(request, "request");
    return locked(() -> doSubmit(request));
  }

  /**
   * Takes back an action a previous process left open (restart recovery, DESIGN.md §5): it keeps
   * the budget it had used, and either waits again from {@code dueAt} or, when its last send's
   * outcome is unknown, goes to reconciliation with its original key.
   *
   * @param sendsUsed sends already made (they count against {@code max_attempts})
   * @param waited time already waited
   * @param dueAt when it may be sent again (ignored when reconciling)
   * @param reconcile true when the last send may have reached the provider without an answer
   */
  public CompletableFuture<Outcome> resume(ActionRequest request, int sendsUsed, Duration waited, Instant dueAt, boolean reconcile) {
    Objects.requireNonNull(request, "request");
    Objects.requireNonNull(waited, "waited");
    Objects.requireNonNull(dueAt, "dueAt");
    return locked(() -> {
      Lane lane = lane(request.scope());
      Instant now = scheduler.now();
      CompletableFuture<Outcome> future = new CompletableFuture<>();
      Action a = new Action(nextActionId++, request, lane,
          Fingerprints.path(request.method(), request.routeTemplate(), request.body(), settings.circuit().volatileFields()), null);
      a.subscribers.add(new Subscriber(request.taskId(), future, false));
      a.attempts = sendsUsed;
      a.waited = waited;
      a.anySent = sendsUsed > 0 || reconcile;
      task(request.taskId()).actions.add(a);
      if (reconcile) {
        reconcile(a, now, "the process stopped while a send of this write was in flight, so its outcome is unknown");
      } else {
        enqueue(a, now, dueAt.isBefore(now) ? now : dueAt);
      }
      pump(lane, now);
      expireIfDue(a, now);
      return future;
    });
  }

  /**
   * Cancels a task: its queued and delayed requests are dropped before they wake, its in-flight
   * attempts' transport futures are cancelled (their slots free when those complete), and every
   * caller of the task gets {@code cancelled}. Later submissions for the task are refused as
   * cancelled. A coalesced attempt shared with another task keeps going for that task.
   *
   * @return how many of the task's pending calls were cancelled
   */
  public int cancel(String taskId) {
    Objects.requireNonNull(taskId, "taskId");
    return locked(() -> doCancel(taskId));
  }

  /**
   * Stops sending for good (a graceful shutdown): no further attempt leaves — queued and delayed
   * actions stay where they are, not even expired by their max_wait (with a journal, for the next
   * start to resume) — while attempts
   * already in flight run to their end and their results are handled as usual (a retry they call
   * for is scheduled, not sent). Idempotent.
   *
   * @return completes once no attempt of this engine is in flight
   */
  public CompletableFuture<Void> stopSending() {
    locked(() -> {
      sending = false;
      checkIdle();
      return null;
    });
    return idle;
  }

  private void checkIdle() {
    if (!sending && !idle.isDone() && lanes.values().stream().allMatch(l -> l.inFlight == 0)) {
      // Not completed here, under the lock: a dependent may call the engine.
      CompletableFuture.runAsync(() -> idle.complete(null));
    }
  }

  /** Every known scope's record (the seed's shape). */
  public List<ScopeRecord> scopes() {
    return registry.snapshot();
  }

  /** The requests waiting in a scope's queue, in dispatch order, with their due times. */
  public List<QueuedRequest> queue(ScopeId scope) {
    return locked(() -> {
      Lane lane = lane(scope);
      List<Action> live = waiting(lane);
      live.sort(READY_ORDER);
      return live.stream()
          .map(a -> new QueuedRequest(a.id, a.request.taskId(), a.request.method(), a.request.target(), a.request.priority(), a.dueAt, a.attempts + 1))
          .toList();
    });
  }

  /** Attempts of the scope in flight now. */
  public int inFlight(ScopeId scope) {
    return locked(() -> lane(scope).inFlight);
  }

  /** Requests waiting in the scope's queue now (what {@code max_delayed_requests} bounds). */
  public int queued(ScopeId scope) {
    return locked(() -> lane(scope).queued);
  }

  /** The shared scope state this engine publishes to. */
  public ScopeRegistry registry() {
    return registry;
  }

  // ---------------------------------------------------------------- submission and cancellation

  private CompletableFuture<Outcome> doSubmit(ActionRequest req) {
    Lane lane = lane(req.scope());
    Instant now = scheduler.now();
    CompletableFuture<Outcome> future = new CompletableFuture<>();
    TaskState task = task(req.taskId());
    if (task.cancelled) {
      Outcome o = new Outcome(req.taskId(), 0, OutcomeCode.CANCELLED, false, false, 0, Duration.ZERO, OptionalInt.empty(),
          holdAfter(req.scope(), now), "the task was cancelled; start a new task to send again",
          "task " + req.taskId() + " was cancelled before this action was submitted", Optional.empty(), Optional.empty(), false, now, false);
      later(() -> future.complete(o));
      return future;
    }
    CoalesceKey key = coalesceKey(req);
    if (key != null) {
      Action leader = coalescing.get(key);
      if (leader != null && !leader.done) {
        leader.subscribers.add(new Subscriber(req.taskId(), future, true));
        task.actions.add(leader);
        return future;
      }
    }
    Action a = new Action(nextActionId++, req, lane, Fingerprints.path(req.method(), req.routeTemplate(), req.body(), settings.circuit().volatileFields()), key);
    a.subscribers.add(new Subscriber(req.taskId(), future, false));
    task.actions.add(a);
    if (key != null) {
      coalescing.put(key, a);
    }
    enqueue(a, now, now);
    pump(lane, now);
    if (a.queued && !a.done && lane.queued > lane.settings.maxDelayedRequests()) {
      finish(a, now, OutcomeCode.SCOPE_BACKPRESSURE, backpressureReason(lane), "retry later, when the scope's queue has drained", Optional.empty());
    }
    expireIfDue(a, now);
    return future;
  }

  private int doCancel(String taskId) {
    TaskState task = task(taskId);
    task.cancelled = true;
    Instant now = scheduler.now();
    int count = 0;
    Set<Lane> touched = new LinkedHashSet<>();
    for (Action a : new ArrayList<>(task.actions)) {
      List<Subscriber> mine = a.subscribers.stream().filter(s -> s.taskId.equals(taskId)).toList();
      count += mine.size();
      // A write whose outcome is unknown, or that is on the wire now, may already have taken effect:
      // cancelling stops Sluice, not the provider, so the agent must not hear "cancelled, nothing happened".
      boolean mayHaveActed = a.uncertain || (a.inFlight && a.request.write());
      OutcomeCode code = mayHaveActed ? OutcomeCode.RECONCILIATION_REQUIRED : OutcomeCode.CANCELLED;
      String reason = mayHaveActed
          ? "task " + taskId + " was cancelled while the write's outcome was unknown; nothing more will be sent, but the provider may have acted"
          : "task " + taskId + " was cancelled";
      for (Subscriber s : mine) {
        a.subscribers.remove(s);
        complete(s, a, now, code, reason,
            mayHaveActed ? "look the action up at the provider (idempotency key, reference or operation id) before sending anything like it again"
                : a.inFlight ? "an attempt was in flight when the task was cancelled; check whether the provider acted before sending again"
                : "nothing more will be sent for this action",
            Optional.empty());
      }
      if (a.subscribers.isEmpty() && !a.done) {
        a.done = true;
        a.request.journalId().ifPresent(id -> log.finished(id, code, reason, a.lastStatus, a.waited, a.operationId));
        dequeue(a);
        if (a.coalesceKey != null) {
          coalescing.remove(a.coalesceKey, a);
        }
        if (a.inFlight && a.transportFuture != null) {
          CompletableFuture<AttemptResult> f = a.transportFuture;
          later(() -> f.cancel(true));
        }
        touched.add(a.lane);
      }
    }
    task.actions.clear();
    for (Lane lane : touched) {
      pump(lane, now);
    }
    return count;
  }

  // ---------------------------------------------------------------- queueing

  private void enqueue(Action a, Instant now, Instant dueAt) {
    Lane lane = a.lane;
    TaskState leaderTask = task(a.request.taskId());
    Duration left = a.reconciling ? LOOKUP_BUDGET.maxWait() : a.request.requestClass().maxWait().minus(a.waited);
    a.expireAt = now.plus(left.isNegative() ? Duration.ZERO : left);
    a.expireCode = OutcomeCode.BUDGET_EXHAUSTED;
    Optional<Instant> deadline = leaderTask.budget.deadline();
    if (deadline.isPresent() && deadline.get().isBefore(a.expireAt)) {
      a.expireAt = deadline.get();
      a.expireCode = OutcomeCode.DEADLINE_EXCEEDED;
    }
    Optional<Instant> hold = registry.nextAllowedAt(lane.settings.id()).filter(h -> h.isAfter(now));
    a.dueAt = hold.isPresent() ? spreadAfter(hold.get(), dueAt, a.expireAt, lane) : dueAt;
    a.queuedSince = now;
    a.queued = true;
    lane.queued++;
    (a.dueAt.isAfter(now) ? lane.delayed : lane.ready).add(a);
    Action self = a;
    a.expiry = scheduler.schedule(a.expireAt, () -> locked(() -> {
      onExpiry(self);
      return null;
    }));
  }

  /** {@code max(due, hold + uniform(0, spread))}, but not past the budget (unless the hold itself is). */
  private Instant spreadAfter(Instant hold, Instant due, Instant expireAt, Lane lane) {
    Duration spread = lane.settings.reopenSpread();
    Instant t = hold;
    if (!spread.isZero()) {
      t = hold.plusNanos((long) (settings.random().nextDouble() * spread.toNanos()));
    }
    if (due.isAfter(t)) {
      t = due;
    }
    Instant latest = expireAt.isAfter(hold) ? expireAt : hold;
    return t.isAfter(latest) ? latest : t;
  }

  /** The lane's live waiting actions, ready or delayed (heaps keep dequeued entries until they surface). */
  private static List<Action> waiting(Lane lane) {
    List<Action> live = new ArrayList<>();
    for (Action a : lane.ready) {
      if (a.queued && !a.done) {
        live.add(a);
      }
    }
    for (Action a : lane.delayed) {
      if (a.queued && !a.done) {
        live.add(a);
      }
    }
    return live;
  }

  /** Re-dues every waiting request after a hold was set or extended. */
  private void respread(Lane lane, Instant hold) {
    List<Action> live = waiting(lane);
    lane.ready.clear();
    lane.delayed.clear();
    live.sort(Comparator.comparingLong(a -> a.seq)); // jitter is drawn in a deterministic order
    for (Action a : live) {
      a.dueAt = spreadAfter(hold, a.dueAt, a.expireAt, lane);
      lane.delayed.add(a);
    }
  }

  private void dequeue(Action a) {
    if (a.queued) {
      a.queued = false;
      a.lane.queued--;
      // the entry stays in its heap and is skipped when it surfaces: O(1) removal
    }
    if (a.expiry != null) {
      a.expiry.cancel();
      a.expiry = null;
    }
  }

  private void onExpiry(Action a) {
    if (a.done || !a.queued) {
      return;
    }
    Instant now = scheduler.now();
    pump(a.lane, now); // it may leave at exactly its last allowed instant
    expireIfDue(a, now);
  }

  private void expireIfDue(Action a, Instant now) {
    if (a.done || !a.queued || a.expireAt.isAfter(now) || !sending) {
      return; // stopped: a waiting action is left as it is, for the next start to resume (and expire)
    }
    String what = a.expireCode == OutcomeCode.DEADLINE_EXCEEDED ? "the task's deadline (" + a.expireAt + ")"
        : "the class " + a.request.requestClass().name() + "'s max_wait of " + seconds(a.request.requestClass().maxWait());
    finish(a, now, a.expireCode, "waited " + seconds(a.waited.plus(Duration.between(a.queuedSince, now))) + " in the queue, reaching " + what
        + ", while " + heldBy(a.lane, now), nextSafeWhenHeld(a.lane, now), Optional.empty());
  }

  // ---------------------------------------------------------------- dispatch

  private static final Comparator<Action> READY_ORDER = Comparator.comparing((Action a) -> a.request.priority())
      .thenComparing(a -> a.dueAt)
      .thenComparingLong(a -> a.seq);
  private static final Comparator<Action> DUE_ORDER = Comparator.comparing((Action a) -> a.dueAt).thenComparingLong(a -> a.seq);

  private void pump(Lane lane, Instant now) {
    if (!sending) {
      return; // stopped: what waits stays waiting (and journaled) for the next start
    }
    while (!lane.delayed.isEmpty() && !lane.delayed.peek().dueAt.isAfter(now)) {
      Action a = lane.delayed.poll();
      if (a.queued && !a.done) {
        lane.ready.add(a);
      }
    }
    ScopeId id = lane.settings.id();
    Instant wakeAt = null;
    while (!lane.ready.isEmpty()) {
      Action a = lane.ready.peek();
      if (!a.queued || a.done) {
        lane.ready.poll();
        continue;
      }
      // 1. task cancelled (normally handled eagerly by cancel(); kept as the first gate)
      if (a.subscribers.stream().allMatch(s -> task(s.taskId).cancelled)) {
        lane.ready.poll();
        finish(a, now, OutcomeCode.CANCELLED, "the task was cancelled", "nothing more will be sent for this action", Optional.empty());
        continue;
      }
      // 2. circuit open
      Optional<CircuitBreaker.Open> open = circuit.openFor(a.request.taskId(), a.pathFingerprint, now);
      if (open.isPresent()) {
        lane.ready.poll();
        finishCircuitOpen(a, now, open.get());
        continue;
      }
      // 3. scope hold
      Optional<Instant> hold = registry.nextAllowedAt(id).filter(h -> h.isAfter(now));
      if (hold.isPresent()) {
        wakeAt = hold.get();
        break;
      }
      // 4. pacing
      Instant paced = lane.pacer.earliest(a.request.priority(), now, registry.learnedQuota(id));
      if (paced.isAfter(now)) {
        wakeAt = paced;
        break;
      }
      // 5. concurrency slot (a completion pumps again); a probing scope allows one attempt
      if (lane.inFlight >= (lane.probing ? 1 : lane.settings.maxConcurrentRequests())) {
        break;
      }
      // 6. task and action budgets
      TaskState leader = task(a.request.taskId());
      if (leader.budget.maxAttempts().isPresent() && leader.attempts >= leader.budget.maxAttempts().getAsInt()) {
        lane.ready.poll();
        finish(a, now, OutcomeCode.BUDGET_EXHAUSTED, "task " + a.request.taskId() + " has used all " + leader.budget.maxAttempts().getAsInt()
            + " " + TASK_ATTEMPT_BUDGET_SPENT, "raise the task's attempt budget or start a new task", Optional.empty());
        continue;
      }
      if (now.isAfter(a.expireAt)) {
        lane.ready.poll();
        expireIfDue(a, now);
        continue;
      }
      lane.ready.poll();
      send(a, now);
    }
    Action nextDelayed = lane.delayed.peek();
    if (nextDelayed != null && (wakeAt == null || nextDelayed.dueAt.isBefore(wakeAt))) {
      wakeAt = nextDelayed.dueAt;
    }
    if (wakeAt != null) {
      wakeAt(lane, wakeAt);
    }
  }

  private void wakeAt(Lane lane, Instant t) {
    if (lane.wake != null && !lane.wakeAt.isAfter(t)) {
      return;
    }
    if (lane.wake != null) {
      lane.wake.cancel();
    }
    Object token = new Object();
    lane.wakeToken = token;
    lane.wakeAt = t;
    lane.wake = scheduler.schedule(t, () -> locked(() -> {
      Lane current = lanes.get(lane.settings.id());
      if (current == lane && lane.wakeToken == token) {
        lane.wake = null;
        lane.wakeToken = null;
        pump(lane, scheduler.now());
      }
      return null;
    }));
  }

  private void send(Action a, Instant now) {
    Lane lane = a.lane;
    a.waited = a.waited.plus(Duration.between(a.queuedSince, now));
    dequeue(a);
    boolean lookup = a.reconciling;
    if (lookup) {
      a.lookups++;
    } else {
      a.attempts++;
    }
    a.lastWasLookup = lookup;
    task(a.request.taskId()).attempts++;
    a.inFlight = true;
    lane.inFlight++;
    lane.pacer.onSend(now, registry.learnedQuota(lane.settings.id()));
    ActionRequest r = a.request;
    int number = a.attempts + a.lookups;
    AttemptRequest attempt = lookup
        ? new AttemptRequest(a.id, r.taskId(), r.scope(), r.lookup().orElseThrow().method(), a.lookupTarget, Headers.empty(), new byte[0], number,
            Optional.empty(), true, r.journalId(), r.requestClass().name())
        : new AttemptRequest(a.id, r.taskId(), r.scope(), r.method(), r.target(), r.headers(), r.body(), number, r.idempotencyKey(), false,
            r.journalId(), r.requestClass().name());
    CompletableFuture<AttemptResult> f;
    try {
      f = transport.send(attempt);
      if (f == null) {
        throw new IllegalStateException("transport returned no future");
      }
    } catch (RuntimeException e) {
      LOG.warn("transport failed to start attempt {} of action {}: {}", number, a.id, e.toString());
      f = CompletableFuture.completedFuture(new AttemptResult.Failure(TransportFailure.CONNECT_FAILED));
    }
    a.transportFuture = f;
    f.whenComplete((result, error) -> onTransportDone(a, number, result, error));
  }

  private void onTransportDone(Action a, int attempt, AttemptResult result, Throwable error) {
    if (lock.isHeldByCurrentThread()) {
      // Completed inside send(): processed before the lock is released, so no other thread can
      // send in between, and without recursion.
      completions.add(() -> attemptDone(a, result, error));
      return;
    }
    locked(() -> {
      attemptDone(a, result, error);
      return null;
    });
  }

  private void attemptDone(Action a, AttemptResult r, Throwable error) {
    handleAttempt(a, r, error);
    checkIdle(); // after the result's consequences were handed to the action log (the journal)
  }

  private void handleAttempt(Action a, AttemptResult r, Throwable error) {
    Instant now = scheduler.now();
    Lane lane = a.lane;
    lane.inFlight--;
    a.inFlight = false;
    a.transportFuture = null;
    if (a.done) { // cancelled while in flight
      pump(lane, now);
      return;
    }
    AttemptResult result = r != null ? r : new AttemptResult.Failure(TransportFailure.RESET_AFTER_SEND);
    if (r == null) {
      LOG.warn("attempt of action {} completed exceptionally ({}); treated as outcome unknown after send", a.id, String.valueOf(error));
    }
    Classification c = settings.classifier().classify(result);
    Headers headers = result instanceof AttemptResult.Response resp ? resp.headers() : Headers.empty();
    RateLimitReading rateLimits = settings.rateLimitReader().read(headers, now);
    List<HeaderNote> notes = new ArrayList<>();
    Optional<ServerDelay> serverDelay = ServerDelay.from(ServerDelayReading.read(headers, now, settings.retryAfterPolicy()), rateLimits, c.verdict(),
        now, settings.retryAfterPolicy(), notes);
    ScopeId id = lane.settings.id();

    // Publish to the scope FIRST: nobody may send into a scope whose 429 has been received.
    Optional<Instant> holdBefore = registry.nextAllowedAt(id);
    ScopeRecord record = registry.observe(id, new ResponseObservation(a.request.requestClass().name(), c, serverDelay, rateLimits, now));
    if (!rateLimits.isEmpty()) {
      lane.pacer.onObservation(registry.learnedQuota(id), lane.inFlight);
    }
    if (record.nextAllowedAt().isPresent() && record.nextAllowedAt().get().isAfter(now)
        && (holdBefore.isEmpty() || record.nextAllowedAt().get().isAfter(holdBefore.get()))) {
      respread(lane, record.nextAllowedAt().get());
    }
    // A rate-limited scope reopens with one probe; any other answer lets the others go.
    lane.probing = c.verdict() == Verdict.RATE_LIMITED;

    a.anySent |= c.verdict().requestSent();
    a.responseReceived = c.verdict().responseReceived();
    a.lastStatus = c.status();
    a.lastResponse = result instanceof AttemptResult.Response resp ? Optional.of(resp) : Optional.empty();
    if (a.lastWasLookup) {
      lookupDone(a, c, serverDelay, now);
      pump(lane, now);
      expireIfDue(a, now);
      return;
    }
    if (result instanceof AttemptResult.Response resp && a.operationId.isEmpty()) {
      a.operationId = a.request.lookup().flatMap(LookupPlan::operationId).flatMap(src -> LookupAnswer.operationId(src, resp));
    }

    TaskState leader = task(a.request.taskId());
    RequestClass rc = a.request.requestClass();
    RetryContext ctx = new RetryContext(rc.name(), rc.maxAttempts(), rc.maxWait(), java.util.Set.copyOf(rc.retryStatuses()), a.request.write(),
        a.request.idempotencyKey().isPresent(), a.request.lookupAvailable(), a.attempts, a.waited, leader.budget.deadline(), now);
    RetryDecision d = settings.planner().decide(c, ctx, serverDelay, settings.random());
    // The circuit counts actions that ended in a failure, not each bounded retry inside one action:
    // it stops an agent resubmitting the same failing call, and never cuts max_attempts short.
    Optional<CircuitBreaker.Open> open = Optional.empty();
    if (d.action() != RetryDecision.Action.RETRY && countsForCircuit(c.verdict())) {
      circuit.recordFailure(a.request.taskId(), a.pathFingerprint, Fingerprints.failure(a.pathFingerprint, c, result), c.reason(), now);
    } else if (c.verdict() == Verdict.SUCCESS) {
      circuit.recordSuccess(a.request.taskId(), a.pathFingerprint);
    } else if (d.action() == RetryDecision.Action.RETRY) {
      open = circuit.openFor(a.request.taskId(), a.pathFingerprint, now);
    }
    switch (d.action()) {
      case DONE -> finish(a, now, OutcomeCode.fromCode(d.outcome().orElseThrow())
          .orElseThrow(() -> new IllegalStateException("planner outcome without an engine outcome: " + d.outcome())), d.reason(), d.nextSafeAction(),
          Optional.empty());
      case RECONCILE -> reconcile(a, now, d.reason());
      case ESCALATE -> {
        // No key and no look-up: no automated repeat is safe. The action stops here; the
        // escalation (a person's decision) starts from this state.
        a.uncertain = true;
        finish(a, now, OutcomeCode.RECONCILIATION_REQUIRED, d.reason(), d.nextSafeAction(), Optional.empty());
      }
      case RETRY -> {
        if (open.isPresent()) {
          finishCircuitOpen(a, now, open.get());
        } else if (leader.budget.maxAttempts().isPresent() && leader.attempts >= leader.budget.maxAttempts().getAsInt()) {
          finish(a, now, OutcomeCode.BUDGET_EXHAUSTED, d.reason() + "; but task " + a.request.taskId() + " has used all "
              + leader.budget.maxAttempts().getAsInt() + " " + TASK_ATTEMPT_BUDGET_SPENT, "raise the task's attempt budget or start a new task", Optional.empty());
        } else if (lane.queued >= lane.settings.maxDelayedRequests()) {
          finish(a, now, OutcomeCode.SCOPE_BACKPRESSURE, d.reason() + "; but " + backpressureReason(lane),
              "retry later, when the scope's queue has drained", Optional.empty());
        } else {
          Instant due = d.dueAt().orElseThrow();
          a.request.journalId().ifPresent(jid -> log.waiting(jid, due, a.waited));
          enqueue(a, now, due);
        }
      }
    }
    pump(lane, now);
    expireIfDue(a, now);
  }

  // ---------------------------------------------------------------- reconciliation

  /** The write's outcome is unknown: look it up, resend with its key, or stop. Never a blind resend. */
  private void reconcile(Action a, Instant now, String why) {
    a.uncertain = true;
    Optional<String> target = a.request.lookup().flatMap(p -> p.target(a.operationId));
    Optional<ActionId> jid = a.request.journalId();
    if (target.isPresent()) {
      a.reconciling = true;
      a.lookupTarget = target.get();
      jid.ifPresent(id -> log.reconciling(id, now, a.waited));
      enqueue(a, now, now);
      return;
    }
    RequestClass rc = a.request.requestClass();
    if (a.request.idempotencyKey().isPresent() && a.attempts < rc.maxAttempts()) {
      // The provider deduplicates by key: the resend replays the first answer if it was done. The
      // action stays uncertain until an answer proves its outcome: if the resend fails too, it ends
      // in reconciliation, never as a plain failure the agent would "fix" by sending with a new key.
      jid.ifPresent(id -> {
        log.reconciling(id, now, a.waited);
        log.waiting(id, now, a.waited);
      });
      enqueue(a, now, now);
      return;
    }
    String cannot = a.request.lookup().isPresent() ? "its look-up needs a value no response gave (the provider's operation id)"
        : a.request.idempotencyKey().isPresent() ? "its class " + rc.name() + " allows no further attempt with the same key"
        : "the route has no idempotency key and no look-up";
    finish(a, now, OutcomeCode.RECONCILIATION_REQUIRED, why + "; " + cannot + ", so no automated repeat is safe",
        "a person checks the provider's records, then decides: query existing, retry with the same key, cancel or send new", Optional.empty());
  }

  private void lookupDone(Action a, Classification c, Optional<ServerDelay> serverDelay, Instant now) {
    a.reconciling = false;
    Verdict v = c.verdict();
    int status = c.status().orElse(0);
    if (v == Verdict.SUCCESS) {
      LookupAnswer answer = LookupAnswer.read(a.lastResponse.orElseThrow(), a.lookupTarget != null && a.lookupTarget.contains("?"));
      if (answer == LookupAnswer.FOUND) {
        a.uncertain = false;
        a.reconciled = true;
        finish(a, now, OutcomeCode.SUCCEEDED, "reconciled: the look-up found the provider's record of this action; nothing was sent again",
            "use the provider's record in the response", Optional.empty());
        return;
      }
      if (answer == LookupAnswer.ABSENT) {
        provenAbsent(a, now, "the look-up found no record");
        return;
      }
      stopReconciling(a, now, "the look-up's answer could not be read as a record or a list");
      return;
    }
    if (status == 404 || status == 410) {
      provenAbsent(a, now, "the look-up answered " + status);
      return;
    }
    boolean transientFailure = v == Verdict.RATE_LIMITED || v == Verdict.UNAVAILABLE || v == Verdict.TIMEOUT_BEFORE_SEND
        || v == Verdict.RESET_BEFORE_SEND || v == Verdict.OUTCOME_UNKNOWN;
    if (transientFailure) {
      RequestClass rc = LOOKUP_BUDGET;
      RetryContext ctx = new RetryContext("lookup", rc.maxAttempts(), rc.maxWait(), java.util.Set.copyOf(rc.retryStatuses()), false, false, false,
          a.lookups, Duration.ZERO, task(a.request.taskId()).budget.deadline(), now);
      RetryDecision d = settings.planner().decide(c, ctx, serverDelay, settings.random());
      if (d.action() == RetryDecision.Action.RETRY) {
        Instant due = d.dueAt().orElseThrow();
        a.reconciling = true;
        a.request.journalId().ifPresent(id -> log.reconciling(id, due, a.waited));
        enqueue(a, now, due);
        return;
      }
      stopReconciling(a, now, "the look-up failed (" + c.reason() + ") and its budget is used: " + d.reason());
      return;
    }
    stopReconciling(a, now, "the look-up failed: " + c.reason());
  }

  private void provenAbsent(Action a, Instant now, String why) {
    a.uncertain = false;
    RequestClass rc = a.request.requestClass();
    if (a.attempts < rc.maxAttempts()) {
      a.request.journalId().ifPresent(id -> log.waiting(id, now, a.waited));
      enqueue(a, now, now); // the same key, payload and reference
      return;
    }
    a.uncertain = true; // keeps it out of "failed": the decision is a person's
    finish(a, now, OutcomeCode.RECONCILIATION_REQUIRED, why + ", so the write did not take effect; class " + rc.name() + " allows "
        + rc.maxAttempts() + " attempt(s), all used", "resend with the same idempotency key or reference (the look-up proved no record), or cancel",
        Optional.empty());
  }

  private void stopReconciling(Action a, Instant now, String why) {
    finish(a, now, OutcomeCode.RECONCILIATION_REQUIRED, "the write's outcome is unknown and " + why,
        "look the action up at the provider (idempotency key, reference or operation id), then decide: retry with the same key, cancel or send new",
        Optional.empty());
  }

  /** 429s are scheduling instructions, not failures of the path; everything else that failed counts. */
  private static boolean countsForCircuit(Verdict v) {
    return v != Verdict.SUCCESS && v != Verdict.RATE_LIMITED;
  }

  // ---------------------------------------------------------------- outcomes

  private void finishCircuitOpen(Action a, Instant now, CircuitBreaker.Open open) {
    finish(a, now, OutcomeCode.CIRCUIT_OPEN, "the same failure happened " + open.failures() + " times on this path within "
        + seconds(settings.circuit().window()) + " (fingerprint " + open.fingerprint() + "); last error: " + open.lastError(),
        "do not rephrase and resend: fix the cause named in the last error, or ask a person", Optional.of(open.fingerprint()));
  }

  private void finish(Action a, Instant now, OutcomeCode givenCode, String givenReason, String givenNextSafe, Optional<String> fingerprint) {
    if (a.done && a.subscribers.isEmpty()) {
      return;
    }
    OutcomeCode code = givenCode;
    String reason = givenReason;
    String nextSafe = givenNextSafe;
    if (a.uncertain && code != OutcomeCode.SUCCEEDED && code != OutcomeCode.CANCELLED && code != OutcomeCode.RECONCILIATION_REQUIRED) {
      // Whatever stopped it, the provider may hold the effect: this is not a plain failure.
      code = OutcomeCode.RECONCILIATION_REQUIRED;
      reason = "the write's outcome is still unknown, and " + givenReason;
      nextSafe = "look the action up at the provider before anything else; " + givenNextSafe;
    }
    a.done = true;
    if (a.queued) {
      a.waited = a.waited.plus(Duration.between(a.queuedSince, now)); // waiting that never led to a send still counts
      a.queuedSince = now;
    }
    dequeue(a);
    if (a.coalesceKey != null) {
      coalescing.remove(a.coalesceKey, a);
    }
    if (a.request.journalId().isPresent()) {
      Duration waited = a.waited;
      log.finished(a.request.journalId().get(), code, reason, a.lastStatus, waited, a.operationId);
    }
    for (Subscriber s : a.subscribers) {
      complete(s, a, now, code, reason, nextSafe, fingerprint);
    }
    a.subscribers.clear();
  }

  private void complete(Subscriber s, Action a, Instant now, OutcomeCode code, String reason, String nextSafe, Optional<String> fingerprint) {
    Duration waited = a.queued ? a.waited.plus(Duration.between(a.queuedSince, now)) : a.waited;
    Outcome o = new Outcome(s.taskId, a.id, code, a.anySent || a.inFlight, a.responseReceived && !a.inFlight, a.attempts + a.lookups, waited,
        a.lastStatus, holdAfter(a.request.scope(), now), nextSafe, reason, code == OutcomeCode.CANCELLED ? Optional.empty() : a.lastResponse,
        fingerprint, s.follower, now, a.reconciled && code == OutcomeCode.SUCCEEDED);
    TaskState t = tasks.get(s.taskId);
    if (t != null) {
      t.actions.remove(a);
      if (t.actions.isEmpty() && !t.cancelled && t.budget.equals(TaskBudget.NONE)) {
        tasks.remove(s.taskId); // nothing to remember for a task without a budget
      }
    }
    CompletableFuture<Outcome> f = s.future;
    later(() -> f.complete(o));
  }

  private Optional<Instant> holdAfter(ScopeId id, Instant now) {
    return registry.nextAllowedAt(id).filter(h -> h.isAfter(now));
  }

  private String heldBy(Lane lane, Instant now) {
    Optional<ScopeRecord> rec = registry.record(lane.settings.id());
    if (rec.isPresent() && rec.get().nextAllowedAt().isPresent() && rec.get().nextAllowedAt().get().isAfter(now)) {
      return "the scope is held until " + rec.get().nextAllowedAt().get() + " (" + rec.get().source() + ")";
    }
    if (lane.inFlight >= lane.settings.maxConcurrentRequests()) {
      return "all " + lane.settings.maxConcurrentRequests() + " concurrency slots of the scope were busy";
    }
    return "the scope's pacing or queue held it";
  }

  private String nextSafeWhenHeld(Lane lane, Instant now) {
    Optional<Instant> hold = holdAfter(lane.settings.id(), now);
    return hold.map(h -> "nothing was sent for this wait; try again after " + h + " as a new action")
        .orElse("nothing was sent for this wait; try again later as a new action, or give the class a longer max_wait");
  }

  private static String backpressureReason(Lane lane) {
    return "scope " + lane.settings.id() + " already holds " + lane.settings.maxDelayedRequests() + " waiting requests (max_delayed_requests)";
  }

  private static String seconds(Duration d) {
    double s = d.toNanos() / 1e9;
    return (s == Math.rint(s) ? String.valueOf((long) s) : String.format(java.util.Locale.ROOT, "%.3f", s)) + " s";
  }

  // ---------------------------------------------------------------- plumbing

  private Lane lane(ScopeId id) {
    Lane lane = lanes.get(Objects.requireNonNull(id, "scope"));
    if (lane == null) {
      throw new IllegalArgumentException("scope " + id + " is not registered with the engine; known scopes: " + lanes.keySet());
    }
    return lane;
  }

  private TaskState task(String id) {
    return tasks.computeIfAbsent(id, k -> new TaskState());
  }

  private static CoalesceKey coalesceKey(ActionRequest r) {
    if (!r.immutable() || !(r.method().equals("GET") || r.method().equals("HEAD"))) {
      return null;
    }
    return new CoalesceKey(r.scope(), r.method(), r.routeTemplate(), r.target());
  }

  private <T> T locked(Supplier<T> work) {
    lock.lock();
    T result;
    try {
      result = work.get();
      Runnable c;
      while ((c = completions.poll()) != null) {
        c.run();
      }
    } finally {
      lock.unlock();
    }
    drain();
    return result;
  }

  private static void later(Runnable r) {
    EFFECTS.get().add(r);
  }

  /** Runs deferred effects on this thread, outside the lock; nested calls leave it to the outer loop. */
  private void drain() {
    if (lock.isHeldByCurrentThread() || DRAINING.get()) {
      return;
    }
    DRAINING.set(true);
    RuntimeException first = null;
    try {
      ArrayDeque<Runnable> q = EFFECTS.get();
      Runnable r;
      while ((r = q.poll()) != null) {
        try {
          r.run();
        } catch (RuntimeException e) {
          LOG.error("engine effect failed", e);
          if (first == null) {
            first = e;
          }
        }
      }
    } finally {
      DRAINING.set(false);
    }
    if (first != null) {
      throw first;
    }
  }

  // ---------------------------------------------------------------- state (guarded by lock)

  private record CoalesceKey(ScopeId scope, String method, String route, String target) {}

  private record Subscriber(String taskId, CompletableFuture<Outcome> future, boolean follower) {}

  private static final class TaskState {
    TaskBudget budget = TaskBudget.NONE;
    int attempts;
    boolean cancelled;
    final Set<Action> actions = new LinkedHashSet<>();
  }

  private static final class Lane {
    final ScopeSettings settings;
    final Pacer pacer;
    final PriorityQueue<Action> ready = new PriorityQueue<>(READY_ORDER);
    final PriorityQueue<Action> delayed = new PriorityQueue<>(DUE_ORDER);
    int queued;
    int inFlight;
    /** Nothing known yet, or just rate limited: one attempt at a time until an answer that is not a 429. */
    boolean probing = true;
    Cancellable wake;
    Instant wakeAt;
    Object wakeToken;

    Lane(ScopeSettings settings) {
      this.settings = settings;
      this.pacer = new Pacer(settings.rate());
    }
  }

  private static final class Action {
    final long id;
    final long seq;
    final ActionRequest request;
    final String pathFingerprint;
    final CoalesceKey coalesceKey;
    final List<Subscriber> subscribers = new ArrayList<>(1);
    final Lane lane;
    int attempts;
    Duration waited = Duration.ZERO;
    Instant queuedSince;
    Instant dueAt;
    Instant expireAt;
    OutcomeCode expireCode;
    Cancellable expiry;
    boolean queued;
    boolean inFlight;
    boolean done;
    boolean anySent;
    boolean responseReceived;
    OptionalInt lastStatus = OptionalInt.empty();
    Optional<AttemptResult.Response> lastResponse = Optional.empty();
    CompletableFuture<AttemptResult> transportFuture;
    /** Reconciliation look-ups sent (not counted in {@code attempts}, which are sends). */
    int lookups;
    /** The next attempt is a look-up of {@link #lookupTarget}. */
    boolean reconciling;
    boolean lastWasLookup;
    String lookupTarget;
    /** A send may have taken effect without an answer, and nothing has settled it yet. */
    boolean uncertain;
    boolean reconciled;
    Optional<String> operationId = Optional.empty();

    Action(long id, ActionRequest request, Lane lane, String pathFingerprint, CoalesceKey coalesceKey) {
      this.id = id;
      this.seq = id;
      this.request = request;
      this.lane = lane;
      this.pathFingerprint = pathFingerprint;
      this.coalesceKey = coalesceKey;
    }
  }
}
