package dev.sluice.bench.engine;

import dev.sluice.core.classify.AttemptResult;
import dev.sluice.core.engine.ActionRequest;
import dev.sluice.core.engine.Engine;
import dev.sluice.core.engine.EngineSettings;
import dev.sluice.core.engine.Outcome;
import dev.sluice.core.engine.OutcomeCode;
import dev.sluice.core.engine.Priority;
import dev.sluice.core.engine.RateSettings;
import dev.sluice.core.engine.ScopeSettings;
import dev.sluice.core.engine.VirtualScheduler;
import dev.sluice.core.http.Headers;
import dev.sluice.core.scope.InMemoryScopeRegistry;
import dev.sluice.core.scope.ScopeId;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * The cost of a delayed request with {@code waiting} others already queued on one scope: the engine
 * on virtual time ({@link VirtualScheduler}), a scope paced at 100,000 requests per 60 s (one
 * every 0.6 ms, burst 1, one in flight), a transport that answers 200 at once. Measured with {@link System#nanoTime} around
 * batches, after a warm-up round on a separate engine:
 *
 * <ul>
 *   <li><b>enqueue</b>: {@code Engine.submit} of one more read that must wait (the gate is closed);
 *   <li><b>wake</b>: one step of virtual time (1 s) that wakes the scope, dispatches the head of the
 *       queue, completes its attempt and its outcome, and re-arms the wake-up;
 *   <li><b>heap per waiting request</b>: heap in use (MemoryMXBean, after {@code System.gc()}
 *       three times) with {@code waiting} requests queued minus before, divided by {@code waiting}.
 *       It counts everything one queued call costs: the engine's action record and queue entry,
 *       the caller's {@code ActionRequest} (strings, headers) and its {@code CompletableFuture}.
 * </ul>
 *
 * <p>Each request has its own task id, as independent agent calls would.
 */
final class QueueCost {
  static final ScopeId SCOPE = new ScopeId("bench", "account:bench");
  static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
  /** 100,000 per 60 s: the last of 100,000 queued waits 60 s, inside a read's max_wait of 90 s. */
  static final int RATE = 100_000;
  static final Duration PER = Duration.ofSeconds(60);
  static final Duration STEP = PER.dividedBy(RATE);

  /**
   * @param waiting requests queued while measuring
   * @param enqueueNanos nanoseconds per enqueue (median of the batches)
   * @param wakeNanos nanoseconds per wake-and-dispatch (median of the batches)
   * @param heapBytesPerWaiting heap bytes per waiting request
   */
  record Result(int waiting, double enqueueNanos, double wakeNanos, double heapBytesPerWaiting) {}

  private final VirtualScheduler clock = new VirtualScheduler(T0);
  private final Engine engine;
  private final List<CompletableFuture<Outcome>> futures = new ArrayList<>();
  private int next;

  private QueueCost(int capacity) {
    AttemptResult ok = new AttemptResult.Response(200, Headers.empty());
    engine = new Engine(EngineSettings.defaults(), clock, r -> CompletableFuture.completedFuture(ok), new InMemoryScopeRegistry());
    engine.registerScope(ScopeSettings.of(SCOPE, 1, capacity).withRate(new RateSettings(RATE, PER, 0, java.util.OptionalInt.of(1))));
  }

  private void submit(int count) {
    for (int i = 0; i < count; i++) {
      futures.add(engine.submit(ActionRequest.read("task-" + next++, Priority.INTERACTIVE, SCOPE, "/v1/invoices/{id}", "/v1/invoices/42")));
    }
  }

  static Result measure(int waiting, int batch, int batches) {
    // Warm-up on an engine of its own, so the JIT has seen every path before the measured one.
    QueueCost warm = new QueueCost(waiting + batch * batches + 10);
    warm.submit(Math.min(waiting, 20_000));
    for (int b = 0; b < batches; b++) {
      warm.submit(batch);
      warm.wake(batch);
    }
    warm = null;

    long before = usedHeap();
    QueueCost q = new QueueCost(waiting + batch * batches + 10);
    q.submit(1 + waiting); // the first is sent at once; the others wait
    long after = usedHeap();
    int queued = q.engine.queued(SCOPE);
    if (queued != waiting) {
      throw new IllegalStateException("expected " + waiting + " waiting, the engine has " + queued);
    }
    double heapPerWaiting = (after - before) / (double) waiting;

    double[] enqueue = new double[batches];
    double[] wake = new double[batches];
    for (int b = 0; b < batches; b++) {
      long t0 = System.nanoTime();
      q.submit(batch);
      long t1 = System.nanoTime();
      q.wake(batch);
      long t2 = System.nanoTime();
      enqueue[b] = (t1 - t0) / (double) batch;
      wake[b] = (t2 - t1) / (double) batch;
    }
    if (q.engine.queued(SCOPE) != waiting) {
      throw new IllegalStateException("the queue drifted: " + q.engine.queued(SCOPE) + " waiting, expected " + waiting);
    }
    long done = q.futures.stream().filter(f -> f.isDone() && f.join().outcome() == OutcomeCode.SUCCEEDED).count();
    if (done != 1 + (long) batch * batches) {
      throw new IllegalStateException("expected " + (1 + batch * batches) + " succeeded actions, got " + done);
    }
    return new Result(waiting, median(enqueue), median(wake), heapPerWaiting);
  }

  /** Steps virtual time one pacing interval at a time: each step releases one queued request. */
  private void wake(int count) {
    for (int i = 0; i < count; i++) {
      clock.advance(STEP);
    }
  }

  private static long usedHeap() {
    MemoryMXBean m = ManagementFactory.getMemoryMXBean();
    for (int i = 0; i < 3; i++) {
      System.gc();
    }
    return m.getHeapMemoryUsage().getUsed();
  }

  private static double median(double[] v) {
    double[] s = v.clone();
    java.util.Arrays.sort(s);
    return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
  }
}
