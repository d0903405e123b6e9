package dev.sluice.core.engine;

import static dev.sluice.core.engine.EngineFixture.SCOPE;
import static dev.sluice.core.engine.EngineFixture.T0;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.core.classify.AttemptResult;
import dev.sluice.core.http.Headers;
import dev.sluice.core.scope.InMemoryScopeRegistry;
import dev.sluice.core.scope.LearnedQuota;
import dev.sluice.core.scope.ResponseObservation;
import dev.sluice.core.scope.ScopeId;
import dev.sluice.core.scope.ScopeRecord;
import dev.sluice.core.scope.ScopeRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.RepeatedTest;

/**
 * Concurrent workers (real threads) on one scope, with the provider answering on its own threads:
 * once the 429 is published to the scope, no worker sends into it before its hold ends.
 */
class ScopeHoldRaceTest {
  private static final int WORKERS = 8;

  @RepeatedTest(3)
  void noWorkerSendsIntoAScopeWhose429WasReceived() throws Exception {
    VirtualScheduler clock = new VirtualScheduler(T0);
    ExecutorService provider = Executors.newFixedThreadPool(4);
    ExecutorService workers = Executors.newFixedThreadPool(WORKERS);
    List<String> events = new ArrayList<>(); // guarded by itself; "send", "hold" in true order
    AtomicInteger n = new AtomicInteger();
    Transport transport = req -> {
      int k = n.incrementAndGet();
      synchronized (events) {
        events.add("send");
      }
      CompletableFuture<AttemptResult> f = new CompletableFuture<>();
      provider.execute(() -> f.complete(k == 20 ? new AttemptResult.Response(429, Headers.of("Retry-After", "10"))
          : new AttemptResult.Response(200, Headers.empty())));
      return f;
    };
    ScopeRegistry recording = new RecordingRegistry(new InMemoryScopeRegistry(), events);
    Engine engine = new Engine(EngineSettings.defaults().withRandom(new SplittableRandom(7)), clock, transport, recording);
    engine.registerScope(ScopeSettings.of(SCOPE, 3, 10_000));
    List<Future<List<Outcome>>> results = new ArrayList<>();
    for (int w = 0; w < WORKERS; w++) {
      int worker = w;
      results.add(workers.submit(() -> {
        List<Outcome> mine = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
          mine.add(engine.submit(EngineFixture.read("w" + worker + "-" + i)).join()); // one read at a time, as an agent would
        }
        return mine;
      }));
    }
    // Time stands still, so once the hold is published every worker with reads left ends up queued behind it. A
    // worker may have done all 30 reads before the 429's answer was processed (the provider answers on its own
    // threads; on a loaded machine one worker ran 30 reads while the 429 was on its way): it queues nothing.
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (engine.inFlight(SCOPE) > 0 || engine.queued(SCOPE) < WORKERS - results.stream().filter(Future::isDone).count()) {
      if (System.nanoTime() > deadline) {
        String log;
        synchronized (events) {
          log = String.join(",", events);
        }
        String ended = results.stream().filter(Future::isDone).map(f -> {
          try {
            return "returned " + f.get().size() + " outcomes";
          } catch (Exception e) {
            java.io.StringWriter w = new java.io.StringWriter();
            e.getCause().printStackTrace(new java.io.PrintWriter(w));
            return "threw " + w;
          }
        }).toList().toString();
        throw new AssertionError("workers never all queued; queued=" + engine.queued(SCOPE) + " in flight=" + engine.inFlight(SCOPE)
            + " sends=" + n.get() + " done=" + ended + " events=" + log);
      }
      Thread.onSpinWait();
    }
    synchronized (events) {
      int hold = events.indexOf("hold");
      assertThat(hold).as("the 429 was published").isPositive();
      assertThat(events.subList(hold, events.size())).as("sends after the 429 was published").containsOnly("hold");
    }
    assertThat(engine.inFlight(SCOPE)).isZero();
    // The hold ends; every worker finishes all its reads.
    while (!results.stream().allMatch(Future::isDone)) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("workers did not finish");
      }
      clock.advance(Duration.ofMillis(500));
      Thread.sleep(1); // let worker threads submit their next read; correctness does not depend on it
    }
    for (Future<List<Outcome>> r : results) {
      assertThat(r.get()).hasSize(30).allSatisfy(o -> assertThat(o.outcome()).isEqualTo(OutcomeCode.SUCCEEDED));
    }
    workers.shutdownNow();
    provider.shutdownNow();
  }

  /** Notes in the shared event log when a response sets a hold, in the same order as sends. */
  private record RecordingRegistry(ScopeRegistry delegate, List<String> events) implements ScopeRegistry {
    @Override
    public void register(ScopeId id, String requestClass) {
      delegate.register(id, requestClass);
    }

    @Override
    public ScopeRecord observe(ScopeId id, ResponseObservation observation) {
      ScopeRecord r = delegate.observe(id, observation);
      if (r.nextAllowedAt().isPresent() && r.nextAllowedAt().get().isAfter(observation.receivedAt())) {
        synchronized (events) {
          events.add("hold");
        }
      }
      return r;
    }

    @Override
    public Optional<ScopeRecord> record(ScopeId id) {
      return delegate.record(id);
    }

    @Override
    public Optional<LearnedQuota> learnedQuota(ScopeId id) {
      return delegate.learnedQuota(id);
    }

    @Override
    public List<ScopeRecord> snapshot() {
      return delegate.snapshot();
    }
  }
}
