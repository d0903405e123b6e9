package dev.sluice.core.engine;

import static dev.sluice.core.engine.EngineFixture.SCOPE;
import static dev.sluice.core.engine.EngineFixture.read;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** 100,000 waiting requests cost heap entries, not threads (no timing assertion). */
class ManyDelayedRequestsTest {

  @Test
  void oneHundredThousandDelayedRequestsDrainWithoutAThreadEach() {
    AtomicInteger n = new AtomicInteger();
    ScopeSettings scope = new ScopeSettings(SCOPE, 50, 200_000, java.util.Optional.of(new RateSettings(5000, Duration.ofSeconds(1), 0,
        java.util.OptionalInt.of(50))), ScopeSettings.DEFAULT_REOPEN_SPREAD);
    EngineFixture fx = new EngineFixture(Duration.ofMillis(10),
        r -> n.incrementAndGet() == 1 ? RecordingTransport.status(429, "Retry-After", "5") : RecordingTransport.ok(), scope);
    int threadsBefore = Thread.activeCount();
    List<CompletableFuture<Outcome>> all = new ArrayList<>(100_000);
    all.add(fx.engine.submit(read("first")));
    fx.clock.advance(Duration.ofMillis(10)); // the 429: everything after waits
    for (int i = 1; i < 100_000; i++) {
      all.add(fx.engine.submit(read("t" + i)));
    }
    assertThat(fx.engine.queued(SCOPE)).isEqualTo(100_000);
    assertThat(Thread.activeCount()).isLessThanOrEqualTo(threadsBefore + 2);
    fx.clock.runUntilIdle(EngineFixture.T0.plus(Duration.ofMinutes(10)));
    assertThat(all).allSatisfy(f -> assertThat(f.join().outcome()).isEqualTo(OutcomeCode.SUCCEEDED));
    assertThat(fx.transport.calls()).hasSize(100_001);
    assertThat(fx.engine.queued(SCOPE)).isZero();
    assertThat(fx.clock.pending()).isZero();
    assertThat(Thread.activeCount()).isLessThanOrEqualTo(threadsBefore + 2);
  }
}
