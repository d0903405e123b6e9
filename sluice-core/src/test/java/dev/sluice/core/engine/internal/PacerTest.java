package dev.sluice.core.engine.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.core.engine.Priority;
import dev.sluice.core.engine.RateSettings;
import dev.sluice.core.scope.LearnedQuota;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/**
 * The pacer's reading of a remaining count with a short reset (decision 0008): a model of the
 * provider's bucket, not a hold until the reset. A configured rate of 50/s (20 ms apart), burst 10.
 */
class PacerTest {
  static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
  static final Duration INTERVAL = Duration.ofMillis(20);

  final Pacer pacer = new Pacer(Optional.of(new RateSettings(50, Duration.ofSeconds(1), 0, OptionalInt.of(10))));

  static Optional<LearnedQuota> seen(long remaining, Instant at, Duration reset) {
    return Optional.of(new LearnedQuota(OptionalLong.empty(), Optional.empty(), OptionalLong.of(remaining), Optional.of(at.plus(reset)), at, "RateLimit"));
  }

  Instant earliest(Instant now) {
    return pacer.earliest(Priority.INTERACTIVE, now, Optional.empty());
  }

  @Test
  void aSpentBurstWithAOneSecondResetWaitsOneIntervalNotTheReset() {
    for (int i = 0; i < 10; i++) {
      pacer.onSend(T0, Optional.empty());
    }
    pacer.onObservation(seen(0, T0, Duration.ofSeconds(1)), 0);
    assertThat(earliest(T0)).isEqualTo(T0.plus(INTERVAL));
  }

  @Test
  void requestsStillInFlightOweTheirUnitsToo() {
    pacer.onObservation(seen(0, T0, Duration.ofSeconds(1)), 2);
    assertThat(earliest(T0)).isEqualTo(T0.plus(INTERVAL.multipliedBy(3)));
  }

  @Test
  void eachSendTakesAUnitOfTheModel() {
    pacer.onObservation(seen(2, T0, Duration.ofSeconds(1)), 0);
    assertThat(earliest(T0)).isEqualTo(T0);
    pacer.onSend(T0, Optional.empty());
    pacer.onSend(T0, Optional.empty());
    // Two units spent; the GCRA burst would allow more, the provider's bucket would not.
    assertThat(earliest(T0)).isEqualTo(T0.plus(INTERVAL));
  }

  @Test
  void anAnswerThatOvertookALaterOneDoesNotMakeTheModelOptimistic() {
    // The later answer (0 left) is read first; then the earlier one (3 left) arrives.
    pacer.onObservation(seen(0, T0, Duration.ofSeconds(1)), 0);
    pacer.onObservation(seen(3, T0.plusMillis(1), Duration.ofSeconds(1)), 0);
    assertThat(earliest(T0.plusMillis(1))).isEqualTo(T0.plus(INTERVAL));
  }

  @Test
  void aLowerCountReplacesTheModel() {
    pacer.onObservation(seen(5, T0, Duration.ofSeconds(1)), 0);
    pacer.onObservation(seen(0, T0.plusMillis(5), Duration.ofSeconds(1)), 0);
    assertThat(earliest(T0.plusMillis(5))).isEqualTo(T0.plusMillis(5).plus(INTERVAL));
  }

  @Test
  void aResetFurtherAwayStillHoldsUntilTheReset() {
    pacer.onObservation(seen(0, T0, Duration.ofSeconds(30)), 0);
    assertThat(earliest(T0)).isEqualTo(T0.plusSeconds(30));
  }

  @Test
  void withNoRateKnownAShortResetStillHoldsUntilTheReset() {
    Pacer unknown = new Pacer(Optional.empty());
    unknown.onObservation(seen(0, T0, Duration.ofSeconds(1)), 0);
    assertThat(unknown.earliest(Priority.INTERACTIVE, T0, Optional.empty())).isEqualTo(T0.plusSeconds(1));
  }

  @Test
  void aResetCenturiesAwayHoldsWithoutOverflowAndSubNanosecondPrecisionIsKept() {
    // Time is kept as long nanoseconds: an absurd reset date is clamped, never wrapped to the past.
    Pacer learned = new Pacer(Optional.empty());
    Optional<LearnedQuota> far = Optional.of(new LearnedQuota(OptionalLong.of(100), Optional.of(Duration.ofSeconds(60)), OptionalLong.of(0),
        Optional.of(Instant.parse("9999-12-31T23:59:59Z")), T0, "RateLimit"));
    learned.onObservation(far, 0);
    assertThat(learned.earliest(Priority.INTERACTIVE, T0, far)).isAfter(Instant.parse("2100-01-01T00:00:00Z"));

    Instant odd = T0.plusNanos(123_456_789);
    assertThat(earliest(odd)).isSameAs(odd);
    pacer.onSend(odd, Optional.empty());
    assertThat(earliest(odd)).isEqualTo(odd); // burst 10: the second send may follow at once
  }
}
