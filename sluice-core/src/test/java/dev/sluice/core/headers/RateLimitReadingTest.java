package dev.sluice.core.headers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class RateLimitReadingTest {
  static final Instant NOW = Instant.parse("2026-10-21T07:27:00Z");

  static RateLimitObservation requests(String source, Long limit, Long remaining, Long resetInSeconds) {
    return observation(RateLimitObservation.Unit.REQUESTS, source, limit, remaining, resetInSeconds);
  }

  static RateLimitObservation observation(RateLimitObservation.Unit unit, String source, Long limit, Long remaining, Long resetInSeconds) {
    return new RateLimitObservation(RateLimitDialect.LEGACY, unit, Optional.empty(),
        limit == null ? OptionalLong.empty() : OptionalLong.of(limit),
        remaining == null ? OptionalLong.empty() : OptionalLong.of(remaining),
        Optional.empty(),
        Optional.ofNullable(resetInSeconds).map(NOW::plusSeconds),
        source);
  }

  static Optional<String> mostConstrained(RateLimitObservation... obs) {
    return new RateLimitReading(List.of(obs), List.of()).mostConstrained().map(RateLimitObservation::sourceHeader);
  }

  @Test
  void theLowestRemainingFractionIsTheMostConstrained() {
    assertThat(mostConstrained(requests("half", 100L, 50L, 10L), requests("tenth", 10L, 1L, 10L))).contains("tenth");
  }

  @Test
  void anExhaustedPoolIsTheMostConstrainedWhateverItsLimit() {
    assertThat(mostConstrained(requests("almost", 1000L, 1L, 10L), requests("empty", null, 0L, 10L))).contains("empty");
  }

  @Test
  void amongEqualFractionsTheLaterResetHoldsTheScopeLongest() {
    assertThat(mostConstrained(requests("soon", 10L, 0L, 5L), requests("later", 100L, 0L, 30L), requests("unknown", null, 0L, null)))
        .contains("later");
  }

  @Test
  void aRemainderWithoutALimitCountsAsUnconstrainedUnlessExhausted() {
    assertThat(mostConstrained(requests("no-limit", null, 5L, 10L), requests("ninety", 100L, 90L, 10L))).contains("ninety");
  }

  @Test
  void observationsWithoutARemainderAreNotCandidates() {
    assertThat(mostConstrained(requests("reset-only", 100L, null, 10L))).isEmpty();
  }

  @Test
  void tokenPoolsAreLeftOutOfTheRequestsChoiceButCanBeAskedFor() {
    RateLimitReading reading = new RateLimitReading(List.of(
        observation(RateLimitObservation.Unit.TOKENS, "tokens", 1000L, 0L, 60L),
        requests("requests", 100L, 80L, 60L)), List.of());
    assertThat(reading.mostConstrained()).map(RateLimitObservation::sourceHeader).contains("requests");
    assertThat(reading.mostConstrained(RateLimitObservation.Unit.TOKENS)).map(RateLimitObservation::sourceHeader).contains("tokens");
  }

  @Test
  void aRemainderAboveTheLimitIsNotLooserThanFull() {
    assertThat(mostConstrained(requests("over", 10L, 20L, 30L), requests("full", 10L, 10L, 10L))).contains("over");
  }

  @Test
  void isAnImmutableCopy() {
    List<RateLimitObservation> obs = new ArrayList<>(List.of(requests("a", 1L, 1L, 1L)));
    RateLimitReading reading = new RateLimitReading(obs, List.of());
    obs.clear();
    assertThat(reading.observations()).hasSize(1);
    assertThatThrownBy(() -> reading.observations().clear()).isInstanceOf(UnsupportedOperationException.class);
  }
}
