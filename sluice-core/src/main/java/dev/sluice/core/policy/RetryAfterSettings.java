package dev.sluice.core.policy;

import java.time.Duration;
import java.util.Objects;

/**
 * How {@code Retry-After} is bounded ({@code retry_after}): a date already in the past (clock skew)
 * waits {@code minimum_delay_seconds}, never zero; a value beyond {@code cap_seconds} is capped and
 * flagged.
 *
 * @param minimumDelay more than zero; default 1 s
 * @param cap at least {@code minimumDelay}; default 3600 s
 */
public record RetryAfterSettings(Duration minimumDelay, Duration cap) {
  /** 1 s minimum, 1 h cap. */
  public static final RetryAfterSettings DEFAULT = new RetryAfterSettings(Duration.ofSeconds(1), Duration.ofHours(1));

  public RetryAfterSettings {
    Objects.requireNonNull(minimumDelay, "minimumDelay");
    Objects.requireNonNull(cap, "cap");
    if (minimumDelay.isNegative() || minimumDelay.isZero()) {
      throw new IllegalArgumentException("retry_after.minimum_delay_seconds must be more than 0 (a past date must never mean 'now'), got " + minimumDelay);
    }
    if (cap.compareTo(minimumDelay) < 0) {
      throw new IllegalArgumentException("retry_after.cap_seconds (" + cap + ") must be at least minimum_delay_seconds (" + minimumDelay + ")");
    }
  }
}
