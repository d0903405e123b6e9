package dev.sluice.bench.engine;

import dev.sluice.core.classify.AttemptResult;
import dev.sluice.core.engine.ActionRequest;
import dev.sluice.core.engine.Engine;
import dev.sluice.core.engine.EngineSettings;
import dev.sluice.core.engine.Outcome;
import dev.sluice.core.engine.Priority;
import dev.sluice.core.engine.RateSettings;
import dev.sluice.core.engine.ScopeSettings;
import dev.sluice.core.engine.SystemScheduler;
import dev.sluice.core.engine.internal.Pacer;
import dev.sluice.core.http.Headers;
import dev.sluice.core.scope.InMemoryScopeRegistry;
import dev.sluice.core.scope.LearnedQuota;
import dev.sluice.core.scope.ScopeId;
import io.github.bucket4j.Bucket;
import io.github.resilience4j.ratelimiter.RateLimiterConfig;
import io.github.resilience4j.ratelimiter.internal.AtomicRateLimiter;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * Permission decisions with no waiting, side by side in one JMH run (run with 1 and with 2 threads
 * by {@link EngineBench}). Every limiter is sized so that no call ever waits or is refused: what is
 * measured is the cost of deciding.
 *
 * <ul>
 *   <li>{@code resilience4jAcquirePermission}: Resilience4j 2.4.0 {@code AtomicRateLimiter} (one CAS
 *       on its state), 10^9 permits per second, timeout 0.
 *   <li>{@code bucket4jTryConsume}: a Bucket4j 8.14 local bucket (lock-free), 10^9 tokens per second.
 *   <li>{@code sluicePacerDecision}: the engine's pacing gate under a lock, as the engine calls it:
 *       {@code Pacer.earliest} (sliding-log window, GCRA bucket, learnt-quota model) then {@code
 *       onSend}, for a scope of 1,000 requests per second with a burst of 1,000, on a clock that
 *       moves 1 ms per decision (so the window holds 1,000 sends and the gate is always open).
 *   <li>{@code sluiceEngineAction}: a whole action through {@link Engine#submit}: task and budget
 *       checks, the scope's hold, concurrency and pacing gates, the slot taken, the transport
 *       called (it answers 200 at once, no I/O), classification, the scope updated, the slot
 *       released, the outcome completed. The most work of the four; no rate configured, so the
 *       pacing gate only logs.
 * </ul>
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class DecisionBenchmarks {

  /** Resilience4j's rate limiter, never waiting. */
  @State(Scope.Benchmark)
  public static class R4j {
    AtomicRateLimiter limiter;

    @Setup(Level.Trial)
    public void setUp() {
      limiter = new AtomicRateLimiter("bench", RateLimiterConfig.custom().limitForPeriod(1_000_000_000).limitRefreshPeriod(Duration.ofSeconds(1))
          .timeoutDuration(Duration.ZERO).build());
    }
  }

  /** A Bucket4j local bucket, never empty. */
  @State(Scope.Benchmark)
  public static class B4j {
    Bucket bucket;

    @Setup(Level.Trial)
    public void setUp() {
      bucket = Bucket.builder().addLimit(l -> l.capacity(1_000_000_000L).refillGreedy(1_000_000_000L, Duration.ofSeconds(1))).build();
    }
  }

  /** The engine's pacer for one scope, used under a lock as the engine does. */
  @State(Scope.Benchmark)
  public static class SluicePacer {
    final Object lock = new Object();
    Pacer pacer;
    Instant now;
    final Optional<LearnedQuota> learned = Optional.empty();

    @Setup(Level.Trial)
    public void setUp() {
      pacer = new Pacer(Optional.of(new RateSettings(1000, Duration.ofSeconds(1), 0, OptionalInt.of(1000))));
      now = Instant.parse("2026-01-01T00:00:00Z");
    }
  }

  /** An engine with one scope and a transport that answers 200 at once. */
  @State(Scope.Benchmark)
  public static class SluiceEngine {
    static final ScopeId SCOPE = new ScopeId("bench", "account:bench");
    final AttemptResult ok = new AttemptResult.Response(200, Headers.empty());
    SystemScheduler scheduler;
    Engine engine;

    @Setup(Level.Trial)
    public void setUp() {
      scheduler = new SystemScheduler(Clock.systemUTC());
      engine = new Engine(EngineSettings.defaults(), scheduler, r -> CompletableFuture.completedFuture(ok), new InMemoryScopeRegistry());
      engine.registerScope(ScopeSettings.of(SCOPE, 64, 1000));
    }

    @TearDown(Level.Trial)
    public void tearDown() {
      scheduler.close();
    }
  }

  /** Per-thread request object (immutable; reused, as an agent's retry of the same call would). */
  @State(Scope.Thread)
  public static class Request {
    ActionRequest read;

    @Setup(Level.Trial)
    public void setUp() {
      read = ActionRequest.read("bench-task-" + Thread.currentThread().getId(), Priority.INTERACTIVE, SluiceEngine.SCOPE, "/v1/invoices/{id}",
          "/v1/invoices/42");
    }
  }

  @Benchmark
  public boolean resilience4jAcquirePermission(R4j s) {
    return s.limiter.acquirePermission();
  }

  @Benchmark
  public boolean bucket4jTryConsume(B4j s) {
    return s.bucket.tryConsume(1);
  }

  @Benchmark
  public boolean sluicePacerDecision(SluicePacer s) {
    synchronized (s.lock) {
      Instant now = s.now = s.now.plusMillis(1);
      Instant at = s.pacer.earliest(Priority.INTERACTIVE, now, s.learned);
      if (at.isAfter(now)) {
        return false;
      }
      s.pacer.onSend(now, s.learned);
      return true;
    }
  }

  @Benchmark
  public Outcome sluiceEngineAction(SluiceEngine s, Request r) {
    return s.engine.submit(r.read).join();
  }
}
