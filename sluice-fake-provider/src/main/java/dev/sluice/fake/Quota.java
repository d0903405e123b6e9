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

  /** Seconds a drained bucket needs to fill up again; the window written in {@code w=} and friends. */
  public long windowSeconds() {
    long nanos = Math.ceilDiv(Math.multiplyExact(burst, per.toNanos()), requests);
    return Math.max(1, Math.ceilDiv(nanos, 1_000_000_000L));
  }
}
