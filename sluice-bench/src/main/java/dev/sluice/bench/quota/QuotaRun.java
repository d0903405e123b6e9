package dev.sluice.bench.quota;

import dev.sluice.fake.Attempt;
import dev.sluice.fake.FakeProvider;
import dev.sluice.fake.StoredRecord;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Runs one strategy at one size against the fake: resets the provider (full bucket, empty logs),
 * opens a fresh client, lets K worker threads take the N logical actions from one counter until
 * none is left, then reads the provider's attempt log and records.
 */
final class QuotaRun {
  private final FakeProvider fake;
  private final int rate;
  private final int burst;

  QuotaRun(FakeProvider fake, int rate, int burst) {
    this.fake = fake;
    this.rate = rate;
    this.burst = burst;
  }

  Row run(Strategy strategy, Kind kind, int k, int n, String runId) throws Exception {
    fake.reset();
    long[] latencies = new long[n];
    boolean[] ok = new boolean[n];
    AtomicInteger next = new AtomicInteger();
    AtomicLong lastDone = new AtomicLong();
    List<Throwable> errors = new ArrayList<>();
    long begin;
    try (Strategy.Client client = strategy.open(new Strategy.Setup(fake.baseUri(), rate, burst, k))) {
      CountDownLatch start = new CountDownLatch(1);
      List<Thread> workers = new ArrayList<>();
      for (int w = 0; w < k; w++) {
        workers.add(Thread.ofPlatform().name("worker-" + w).start(() -> {
          try {
            start.await();
            for (int i = next.getAndIncrement(); i < n; i = next.getAndIncrement()) {
              long t0 = System.nanoTime();
              ok[i] = client.perform(Action.of(kind, i, runId));
              long t1 = System.nanoTime();
              latencies[i] = t1 - t0;
              lastDone.accumulateAndGet(t1, Math::max);
            }
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          } catch (RuntimeException e) {
            synchronized (errors) {
              errors.add(e);
            }
          }
        }));
      }
      begin = System.nanoTime();
      start.countDown();
      for (Thread t : workers) {
        t.join();
      }
    }
    if (!errors.isEmpty()) {
      // A strategy that throws is a harness bug, not a failed action: stop rather than report it.
      throw new IllegalStateException(strategy.name() + " threw while performing actions", errors.getFirst());
    }
    List<Attempt> attempts = fake.attempts();
    long limited = attempts.stream().filter(a -> a.status() == 429).count();
    long failed = 0;
    for (boolean b : ok) {
      failed += b ? 0 : 1;
    }
    long duplicates = 0;
    if (kind == Kind.WRITES) {
      List<StoredRecord> records = fake.records("transfers");
      long distinct = records.stream().map(StoredRecord::idempotencyKey).flatMap(Optional::stream).distinct().count();
      // Every record beyond the first of its logical action (one key per action) is a duplicate
      // effect; a record without a key (none is sent without one) would count as one too.
      duplicates = records.size() - distinct;
    }
    double makespan = (lastDone.get() - begin) / 1e9;
    return new Row(strategy.name(), kind, k, n, attempts.size(), limited, failed, makespan, (double) n / rate,
        Percentile.of(latencies, 0.50) / 1e6, Percentile.of(latencies, 0.99) / 1e6, duplicates);
  }
}
