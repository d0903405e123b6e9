package dev.sluice.core.retry;

import java.time.Duration;
import java.util.Objects;
import java.util.random.RandomGenerator;

/**
 * Capped exponential backoff with full jitter (DESIGN.md §3 rule 5): the delay before retry
 * {@code n} (n = 1 for the first retry) is drawn from {@code uniform(0, min(max, base * 2^n))}.
 *
 * <p>Full jitter keeps workers that failed together from coming back together. The random source
 * is passed in so tests are exact. Defaults (the seed's): base 1 s, max 60 s.
 *
 * @param base the base delay, positive
 * @param max the cap on the jitter window, at least {@code base}
 */
public record Backoff(Duration base, Duration max) {
  /** The seed's defaults: base 1 s, max 60 s. */
  public static final Backoff SEED_DEFAULT = new Backoff(Duration.ofSeconds(1), Duration.ofSeconds(60));

  public Backoff {
    Objects.requireNonNull(base, "base");
    Objects.requireNonNull(max, "max");
    if (base.isNegative() || base.isZero()) {
      throw new IllegalArgumentException("backoff base must be positive, got " + base);
    }
    if (max.compareTo(base) < 0) {
      throw new IllegalArgumentException("backoff max (" + max + ") must be at least base (" + base + ")");
    }
  }

  /**
   * The upper end of the jitter window for retry {@code n}: {@code min(max, base * 2^n)}.
   *
   * @param retry the retry number, 1 for the first retry
   */
  public Duration window(int retry) {
    if (retry < 1) {
      throw new IllegalArgumentException("retry numbers start at 1 (the first retry), got " + retry);
    }
    // base * 2^n overflows long nanoseconds past n ~ 33 for a 1 s base; the cap is hit long before.
    long baseNanos = base.toNanos();
    long maxNanos = max.toNanos();
    if (retry >= 62 || baseNanos > (maxNanos >> retry)) {
      return max;
    }
    return Duration.ofNanos(baseNanos << retry);
  }

  /** A delay drawn uniformly from {@code [0, window(retry)]}. */
  public Duration sample(int retry, RandomGenerator random) {
    return uniform(Duration.ZERO, window(retry), random);
  }

  /** A duration drawn uniformly from {@code [low, high]} (nanosecond resolution). */
  static Duration uniform(Duration low, Duration high, RandomGenerator random) {
    if (high.compareTo(low) <= 0) {
      return low;
    }
    long span = high.minus(low).toNanos();
    return low.plusNanos((long) (random.nextDouble() * span));
  }
}
