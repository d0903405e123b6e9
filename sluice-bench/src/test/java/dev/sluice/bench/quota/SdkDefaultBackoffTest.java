package dev.sluice.bench.quota;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class SdkDefaultBackoffTest {
  @Test
  void withoutRetryAfterTheDelayDoublesFromHalfASecondAndCapsAtEight() {
    assertThat(SdkDefaultBackoff.delay(0, Optional.empty(), 0.0)).isEqualTo(Duration.ofMillis(500));
    assertThat(SdkDefaultBackoff.delay(1, Optional.empty(), 0.0)).isEqualTo(Duration.ofSeconds(1));
    assertThat(SdkDefaultBackoff.delay(4, Optional.empty(), 0.0)).isEqualTo(Duration.ofSeconds(8));
    assertThat(SdkDefaultBackoff.delay(9, Optional.empty(), 0.0)).isEqualTo(Duration.ofSeconds(8));
  }

  @Test
  void jitterTakesUpToAQuarterOff() {
    assertThat(SdkDefaultBackoff.delay(1, Optional.empty(), 0.5)).isEqualTo(Duration.ofMillis(875));
    assertThat(SdkDefaultBackoff.delay(1, Optional.empty(), 0.999)).isGreaterThan(Duration.ofMillis(750));
  }

  @Test
  void aRetryAfterUpToAMinuteIsUsedAsIs() {
    assertThat(SdkDefaultBackoff.delay(0, Optional.of(Duration.ofSeconds(3)), 0.9)).isEqualTo(Duration.ofSeconds(3));
    assertThat(SdkDefaultBackoff.delay(0, Optional.of(Duration.ofSeconds(60)), 0.9)).isEqualTo(Duration.ofSeconds(60));
  }

  @Test
  void aZeroOrOverAMinuteRetryAfterFallsBackToTheFormula() {
    assertThat(SdkDefaultBackoff.delay(0, Optional.of(Duration.ZERO), 0.0)).isEqualTo(Duration.ofMillis(500));
    assertThat(SdkDefaultBackoff.delay(0, Optional.of(Duration.ofSeconds(61)), 0.0)).isEqualTo(Duration.ofMillis(500));
  }

  @Test
  void refusesAnOutOfRangeRandomOrRetryCount() {
    assertThatThrownBy(() -> SdkDefaultBackoff.delay(0, Optional.empty(), 1.0)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> SdkDefaultBackoff.delay(-1, Optional.empty(), 0.0)).isInstanceOf(IllegalArgumentException.class);
  }
}
