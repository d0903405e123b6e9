package dev.sluice.core.policy;

import java.time.Duration;
import java.util.Objects;

/**
 * Capped exponential backoff with full jitter ({@code backoff}): retry n waits {@code uniform(0,
 * min(max, base × 2^n))}, n = 1 for the first retry (the seed's formula).
 *
 * @param base more than zero; default 1 s
 * @param max at least {@code base}; default 60 s
 */
public record BackoffSettings(Duration base, Duration max) {
  /** The seed's values: base 1 s, max 60 s. */
  public static final BackoffSettings DEFAULT = new BackoffSettings(Duration.ofSeconds(1), Duration.ofSeconds(60));

  public BackoffSettings {
    Objects.requireNonNull(base, "base");
    Objects.requireNonNull(max, "max");
    if (base.isNegative() || base.isZero()) {
      throw new IllegalArgumentException("backoff.base_seconds must be more than 0, got " + base);
    }
    if (max.compareTo(base) < 0) {
      throw new IllegalArgumentException("backoff.max_seconds (" + max + ") must be at least base_seconds (" + base + ")");
    }
  }
}
