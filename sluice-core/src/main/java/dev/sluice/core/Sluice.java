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
import dev.sluice.core.internal.CallCheck;
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
import java.util.UUID;
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
 * one scheduler and one scope registry.
 *
 * <p>{@link #submit} never throws for anything an agent controls: an unknown provider, an unsafe
 * path ({@link dev.sluice.core.policy.PathSafety}), a malformed method, header or key, or a body
 * over {@link Builder#maxRequestBytes} come back at once as a {@link OutcomeCode#REFUSED} outcome
 * that says why; nothing is sent. Every other outcome is the engine's (see {@link Outcome}).
 *
 * <p>Secrets: the credential of each provider is read once, at {@link Builder#build()}, from its
 * {@code secret_env} (through {@link Builder#secrets}) or {@code secret_file}, and handed to the
 * transport, the only place it is used. It never appears in an outcome, a log or an exception.
 *
 * <p>Time: the engine reads time only from the {@link Scheduler} (wall clock by default, a {@link
 * dev.sluice.core.engine.VirtualScheduler} in tests). Futures complete on the transport's or the
 * scheduler's threads; use the {@code *Async} methods for slow callbacks.
 *
 * <p>Thread-safe. {@link #close()} cancels every pending call (its future completes {@code
 * cancelled}) and stops what the builder created (transport, scheduler); a transport or scheduler
 * passed in is left to its owner.
 */
public final class Sluice implements AutoCloseable {
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

  private record Lane(Provider provider, Engine engine) {}

  private Sluice(Policy policy, Scheduler scheduler, InMemoryScopeRegistry registry, Map<String, Lane> lanes, int maxRequestBytes,
      List<AutoCloseable> owned) {
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
   * Loads {@code sluice.yaml} and starts Sluice on the wall clock with the HTTP transport and the
   * process environment for {@code secret_env}.
   *
   * @throws dev.sluice.core.policy.PolicyException when the file is invalid (every problem listed)
   * @throws IllegalStateException when a provider's secret cannot be read
   */
  public static Sluice load(Path file) {
    return builder().policy(PolicyLoader.load(file)).build();
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
    Objects.requireNonNull(call, "call");
    if (closed) {
      throw new IllegalStateException("this Sluice is closed");
    }
    Instant now = scheduler.now();
    Lane lane = lanes.get(call.provider());
    if (lane == null) {
      return refused(call, now, "unknown_provider: provider '" + call.provider() + "' is not in the policy; configured: " + lanes.keySet(),
          "call one of the configured providers, or add this one to sluice.yaml");
    }
    Optional<String> problem = CallCheck.problem(call, maxRequestBytes);
    if (problem.isPresent()) {
      return refused(call, now, problem.get(), "fix the call as the reason says; repeating it unchanged cannot succeed");
    }
    Provider p = lane.provider();
    RouteMatch match = p.classify(call.method(), call.target());
    RequestClass rc = policy.requestClass(match);
    boolean write = !SAFE_METHODS.contains(call.method());
    Headers headers = call.headers();
    Optional<String> key = Optional.empty();
    if (p.idempotencyHeader().isPresent()) {
      String name = p.idempotencyHeader().get();
      Optional<String> agentHeader = headers.first(name);
      headers = without(headers, name);
      if (write) {
        key = Optional.of(call.idempotencyKey().or(() -> agentHeader).orElseGet(() -> "sluice-" + UUID.randomUUID()));
      }
    }
    ActionRequest action = new ActionRequest(call.taskId(), call.priority(), ProviderSetup.scopeId(p), rc, call.method(),
        match.route().path().template(), call.target(), headers, call.body(), match.route().immutable(), key, match.route().lookup().isPresent());
    call.deadline().ifPresent(d -> lane.engine().setTaskBudget(call.taskId(), TaskBudget.deadline(d)));
    pendingByTask.merge(call.taskId(), 1, Integer::sum);
    CompletableFuture<Outcome> f;
    try {
      f = lane.engine().submit(action);
    } catch (RuntimeException e) {
      done(call.taskId());
      throw e;
    }
    f.whenComplete((o, e) -> done(call.taskId()));
    return f;
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
    int n = 0;
    for (Lane lane : lanes.values()) {
      n += lane.engine().cancel(taskId);
    }
    return n;
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
    for (String task : new ArrayList<>(pendingByTask.keySet())) {
      cancel(task);
    }
    for (AutoCloseable c : owned) {
      try {
        c.close();
      } catch (Exception e) {
        // Closing must go on for the rest; nothing useful can be done with the failure here.
        org.slf4j.LoggerFactory.getLogger(Sluice.class).warn("could not close {}: {}", c.getClass().getSimpleName(), e.toString());
      }
    }
  }

  private static CompletableFuture<Outcome> refused(Call call, Instant now, String reason, String nextSafe) {
    return CompletableFuture.completedFuture(new Outcome(call.taskId(), 0, OutcomeCode.REFUSED, false, false, 0, Duration.ZERO,
        OptionalInt.empty(), Optional.empty(), nextSafe, reason, Optional.empty(), Optional.empty(), false, now));
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
    private java.util.function.UnaryOperator<Transport> transportDecorator = java.util.function.UnaryOperator.identity();

    private Builder() {}

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
      List<AutoCloseable> owned = new ArrayList<>();
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
      InMemoryScopeRegistry registry = new InMemoryScopeRegistry(policy.retryAfter());
      Map<String, Lane> lanes = new LinkedHashMap<>();
      long base = seed != null ? seed : new SplittableRandom().nextLong();
      int i = 0;
      for (Provider p : policy.providers().values()) {
        // One random source per engine: each is used under its own engine's lock only.
        Engine engine = new Engine(ProviderSetup.engineSettings(policy, p, new SplittableRandom(base + i++)), s, t, registry);
        engine.registerScope(ProviderSetup.scopeSettings(p));
        lanes.put(p.id(), new Lane(p, engine));
      }
      return new Sluice(policy, s, registry, Collections.unmodifiableMap(lanes), maxRequestBytes, List.copyOf(owned));
    }
  }
}
