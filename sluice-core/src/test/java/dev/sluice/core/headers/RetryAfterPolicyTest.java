package dev.sluice.core.headers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class RetryAfterPolicyTest {

  @Test
  void defaultsAreOneSecondMinimumAndOneHourCap() {
    RetryAfterPolicy p = RetryAfterPolicy.defaults();
    assertThat(p.minimumDelay()).isEqualTo(Duration.ofSeconds(1));
    assertThat(p.cap()).isEqualTo(Duration.ofHours(1));
  }

  @Test
  void aZeroMinimumIsRefusedBecauseItWouldAllowAHotLoop() {
    assertThatThrownBy(() -> new RetryAfterPolicy(Duration.ZERO, Duration.ofHours(1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("minimum delay must be positive");
  }

  @Test
  void negativeOrZeroCapsAreRefused() {
    assertThatThrownBy(() -> new RetryAfterPolicy(Duration.ofSeconds(1), Duration.ofSeconds(-5)))
        .hasMessageContaining("cap must be positive");
    assertThatThrownBy(() -> new RetryAfterPolicy(Duration.ofSeconds(1), Duration.ZERO))
        .hasMessageContaining("cap must be positive");
  }

  @Test
  void aMinimumAboveTheCapIsRefusedWithBothValues() {
    assertThatThrownBy(() -> RetryAfterPolicy.defaults().withCap(Duration.ofMillis(500)))
        .hasMessageContaining("PT1S")
        .hasMessageContaining("PT0.5S");
  }

  @Test
  void withersChangeOneBoundAndKeepTheOther() {
    RetryAfterPolicy p = RetryAfterPolicy.defaults().withMinimumDelay(Duration.ofSeconds(5));
    assertThat(p).isEqualTo(new RetryAfterPolicy(Duration.ofSeconds(5), Duration.ofHours(1)));
    assertThat(p.withCap(Duration.ofMinutes(10)).minimumDelay()).isEqualTo(Duration.ofSeconds(5));
  }
}
