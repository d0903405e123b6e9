package dev.sluice.bench.quota;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class RetryAfterTest {
  private static final long NOW = Instant.parse("2025-06-01T10:00:00Z").toEpochMilli();

  @Test
  void readsDeltaSecondsIncludingFractions() {
    assertThat(RetryAfter.parse("1", NOW)).contains(Duration.ofSeconds(1));
    assertThat(RetryAfter.parse(" 0.25 ", NOW)).contains(Duration.ofMillis(250));
  }

  @Test
  void readsAnHttpDateRelativeToNowAndNeverNegative() {
    assertThat(RetryAfter.parse("Sun, 01 Jun 2025 10:00:05 GMT", NOW)).contains(Duration.ofSeconds(5));
    assertThat(RetryAfter.parse("Sun, 01 Jun 2025 09:59:00 GMT", NOW)).contains(Duration.ZERO);
  }

  @Test
  void ignoresAbsentOrGarbageValues() {
    assertThat(RetryAfter.parse(null, NOW)).isEmpty();
    assertThat(RetryAfter.parse("", NOW)).isEmpty();
    assertThat(RetryAfter.parse("-3", NOW)).isEmpty();
    assertThat(RetryAfter.parse("soon", NOW)).isEmpty();
    assertThat(RetryAfter.parse("NaN", NOW)).isEmpty();
  }
}
