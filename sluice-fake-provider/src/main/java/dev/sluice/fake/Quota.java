package dev.sluice.fake;

import java.time.Duration;
import java.util.Objects;

/**
 * A token-bucket quota: {@code requests} units are added every {@code per}, the bucket holds at
 * most {@code burst}, and it starts full. The default quota of the fake is {@link #DEFAULT}: 10
 * requests per second with a burst of 10.
 *
 * <p>The same shape serves the optional token quota (then {@code requests} counts tokens).
 *
 * @param requests units added per period, at least 1
 * @param per the period, positive
 * @param burst the bucket's capacity, at least 1; {@code burst * per} in nanoseconds must fit in a
 *     long (the bucket keeps exact integer arithmetic)
 */
public record Quota(long requests, Duration per, long burst) {

  /** 10 requests per second, burst 10. */
  public static final Quota DEFAULT = perSecond(10, 10);

  public Quota {
    Objects.requireNonNull(per, "per");
    if (requests < 1) {
      throw new IllegalArgumentException("quota requests must be at least 1, got " + requests);
    }
    if (burst < 1) {
      throw new IllegalArgumentException("quota burst must be at least 1, got " + burst);
    }
    if (per.isNegative() || per.isZero()) {
      throw new IllegalArgumentException("quota period must be positive, got " + per);
    }
    try {
      Math.multiplyExact(burst, per.toNanos());
      Math.addExact(Math.multiplyExact(burst, per.toNanos()), requests);
    } catch (ArithmeticException e) {
      throw new IllegalArgumentException("quota too large: burst " + burst + " over " + per + " overflows the bucket's arithmetic");
    }
  }

  /** {@code rate} per second with the given burst. */
  public static Quota perSecond(long rate, long burst) {
    return new Quota(rate, Duration.ofSeconds(1), burst);
  }

  /** {@code requests} per {@code per}, burst equal to {@code requests}. */
  public static Quota of(long requests, Duration per) {
    return new Quota(requests, per, requests);
  }

  /**
   * The window published in {@code w=}: the period in whole seconds, rounded up, at least 1.
   *
   * <p>Until 2026-11 this was the time a drained bucket needs to fill, published with the burst as
   * {@code q}: for 50/s with a burst of 10 that read {@code q=10;w=1}, a fifth of the real rate,
   * and a client pacing by it (Sluice learning the quota) ran 5 times slower than the provider
   * allowed. Token-bucket providers publish the sustained rate as the limit (OpenAI and Anthropic
   * give requests per minute, with the reset as the time until the bucket is full); the IETF
   * draft's integer {@code q}/{@code w} cannot also carry the burst, so the fake publishes the rate.
   */
  public long windowSeconds() {
    return Math.max(1, Math.ceilDiv(per.toNanos(), 1_000_000_000L));
  }

  /** The units published in {@code q=}: the sustained rate over {@link #windowSeconds()}, rounded down, at least 1. */
  public long quotaPerWindow() {
    java.math.BigInteger q = java.math.BigInteger.valueOf(requests).multiply(java.math.BigInteger.valueOf(windowSeconds()))
        .multiply(java.math.BigInteger.valueOf(1_000_000_000L)).divide(java.math.BigInteger.valueOf(per.toNanos()));
    return Math.max(1, q.min(java.math.BigInteger.valueOf(Long.MAX_VALUE)).longValueExact());
  }
}
