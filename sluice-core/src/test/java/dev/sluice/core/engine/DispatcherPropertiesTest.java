package dev.sluice.core.engine;

import static dev.sluice.core.engine.EngineFixture.SCOPE;
import static dev.sluice.core.engine.EngineFixture.T0;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

/** Whatever the arrival pattern, the dispatcher never exceeds the scope's concurrency or rate. */
class DispatcherPropertiesTest {

  @Property(tries = 60)
  void randomArrivalsNeverExceedConcurrencyOrRate(
      @ForAll @Size(min = 1, max = 80) List<@IntRange(min = 0, max = 5000) Integer> arrivalsMs,
      @ForAll @IntRange(min = 1, max = 4) int maxConcurrent,
      @ForAll @IntRange(min = 1, max = 8) int requestsPerSecond,
      @ForAll @IntRange(min = 1, max = 4) int burst,
      @ForAll @IntRange(min = 0, max = 900) int latencyMs,
      @ForAll boolean interactiveMix) {
    int b = Math.min(burst, requestsPerSecond);
    ScopeSettings scope = new ScopeSettings(SCOPE, maxConcurrent, 10_000,
        Optional.of(new RateSettings(requestsPerSecond, Duration.ofSeconds(1), 0.25, OptionalInt.of(b))), ScopeSettings.DEFAULT_REOPEN_SPREAD);
    EngineFixture fx = new EngineFixture(Duration.ofMillis(latencyMs), r -> RecordingTransport.ok(),
        EngineSettings.defaults().withRandom(new SplittableRandom(1)), scope);
    List<Integer> sorted = new ArrayList<>(arrivalsMs);
    sorted.sort(null);
    List<CompletableFuture<Outcome>> all = new ArrayList<>();
    int i = 0;
    for (int at : sorted) {
      fx.clock.advanceTo(T0.plusMillis(at));
      Priority p = interactiveMix && i % 3 == 0 ? Priority.INTERACTIVE : Priority.BACKGROUND;
      all.add(fx.engine.submit(EngineFixture.read("t" + i++, p)));
    }
    fx.clock.runUntilIdle(T0.plus(Duration.ofHours(1)));
    assertThat(fx.transport.maxInFlight()).isLessThanOrEqualTo(maxConcurrent);
    assertThat(DispatcherGatesTest.maxInWindow(fx.transport.sendTimes(), Duration.ofSeconds(1))).isLessThanOrEqualTo(requestsPerSecond);
    // Every action ends: sent and answered, or refused for waiting past its class's max_wait.
    assertThat(all).allSatisfy(f -> assertThat(f.join().outcome()).isIn(OutcomeCode.SUCCEEDED, OutcomeCode.BUDGET_EXHAUSTED));
    long succeeded = all.stream().filter(f -> f.join().succeeded()).count();
    assertThat(fx.transport.calls()).hasSize((int) succeeded);
  }
}
