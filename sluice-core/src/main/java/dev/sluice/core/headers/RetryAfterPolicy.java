package dev.sluice.core.headers;

import java.time.Duration;
import java.util.Objects;

/**
 * Bounds applied to every server-given delay ({@code Retry-After}, {@code retry-after-ms}).
 *
 * <p>A delay the server gives is always raised to at least {@code minimumDelay} and cut to at most
 * {@code cap}, so a parsed delay lies in {@code [minimumDelay, cap]}. The minimum is what a date in
 * the past (clock skew) or a {@code 0} turns into: a moderate pause, never a hot loop. The cap
 * guards against absurd values; a delay beyond it is cut and flagged {@link HeaderFlag#CAPPED}.
 *
 * @param minimumDelay the shortest delay ever returned; positive. Default {@link #DEFAULT_MINIMUM_DELAY} (1 s).
 * @param cap the longest delay ever returned; positive and not below {@code minimumDelay}. Default
 *     {@link #DEFAULT_CAP} (1 h).
 */
public record RetryAfterPolicy(Duration minimumDelay, Duration cap) {
  /** 1 second. */
  public static final Duration DEFAULT_MINIMUM_DELAY = Duration.ofSeconds(1);
  /** 1 hour. */
  public static final Duration DEFAULT_CAP = Duration.ofHours(1);

  private static final RetryAfterPolicy DEFAULTS = new RetryAfterPolicy(DEFAULT_MINIMUM_DELAY, DEFAULT_CAP);

  public RetryAfterPolicy {
    Objects.requireNonNull(minimumDelay, "minimumDelay");
    Objects.requireNonNull(cap, "cap");
    if (minimumDelay.isNegative() || minimumDelay.isZero()) {
      throw new IllegalArgumentException("Retry-After minimum delay must be positive (a zero delay would allow a hot retry loop), got " + minimumDelay);
    }
    if (cap.isNegative() || cap.isZero()) {
      throw new IllegalArgumentException("Retry-After cap must be positive, got " + cap);
    }
    if (minimumDelay.compareTo(cap) > 0) {
      throw new IllegalArgumentException("Retry-After minimum delay " + minimumDelay + " is longer than the cap " + cap);
    }
  }

  /** Minimum delay 1 s, cap 1 h. */
  public static RetryAfterPolicy defaults() {
    return DEFAULTS;
  }

  /** This policy with another minimum delay (validated as in the constructor). */
  public RetryAfterPolicy withMinimumDelay(Duration newMinimumDelay) {
    return new RetryAfterPolicy(newMinimumDelay, cap);
  }

  /** This policy with another cap (validated as in the constructor). */
  public RetryAfterPolicy withCap(Duration newCap) {
    return new RetryAfterPolicy(minimumDelay, newCap);
  }
}
