package dev.sluice.core.retry;

import java.time.Duration;
import java.util.Objects;

/**
 * The interval a retry delay is drawn from. Equal ends mean the delay is exact (a server-given
 * delay longer than the jitter window).
 */
public record DelayRange(Duration min, Duration max) {
  public DelayRange {
    Objects.requireNonNull(min, "min");
    Objects.requireNonNull(max, "max");
    if (min.isNegative() || max.compareTo(min) < 0) {
      throw new IllegalArgumentException("delay range must satisfy 0 <= min <= max, got [" + min + ", " + max + "]");
    }
  }

  public boolean exact() {
    return min.equals(max);
  }

  public boolean contains(Duration d) {
    return d.compareTo(min) >= 0 && d.compareTo(max) <= 0;
  }
}
