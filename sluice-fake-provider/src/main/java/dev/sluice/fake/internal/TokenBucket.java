package dev.sluice.fake.internal;

import dev.sluice.fake.Quota;

/**
 * An exact token bucket. Not thread-safe: its owner ({@link ScopeQuotas}) locks around it.
 *
 * <p>Arithmetic is in integers so that "N requests at rate R and burst B" gives exactly the count a
 * test computes by hand, with no floating-point drift. The level is kept in <em>units</em>: one
 * token is {@code periodNanos} units, the bucket holds {@code burst * periodNanos} units and gains
 * {@code requests} units per elapsed nanosecond (which is exactly {@code requests} tokens per period).
 * A clock that moves backwards refills nothing.
 */
public final class TokenBucket {

  private final long unitsPerToken;
  private final long capacity;
  private final long unitsPerNano;
  private final long burst;
  private long level;
  private long lastNanos;

  public TokenBucket(Quota quota, long nowNanos) {
    this.unitsPerToken = quota.per().toNanos();
    this.burst = quota.burst();
    this.capacity = Math.multiplyExact(quota.burst(), unitsPerToken);
    this.unitsPerNano = quota.requests();
    this.level = capacity;
    this.lastNanos = nowNanos;
  }

  private void refill(long nowNanos) {
    if (nowNanos <= lastNanos) {
      return;
    }
    long elapsed = nowNanos - lastNanos;
    long room = capacity - level;
    // Compare elapsed with the time needed to fill before multiplying, so the product never overflows.
    if (elapsed >= Math.ceilDiv(room, unitsPerNano)) {
      level = capacity;
    } else {
      level += elapsed * unitsPerNano;
    }
    lastNanos = nowNanos;
  }

  /** A cost larger than the bucket can ever hold is clamped to the burst (the request is allowed from a full bucket). */
  private long units(long cost) {
    return Math.min(Math.max(cost, 1), burst) * unitsPerToken;
  }

  /** Whether {@code cost} tokens are available now (refilling first), without taking them. */
  public boolean has(long cost, long nowNanos) {
    refill(nowNanos);
    return level >= units(cost);
  }

  /** Takes {@code cost} tokens; call only after {@link #has} returned true at the same instant. */
  public void take(long cost) {
    long u = units(cost);
    if (level < u) {
      throw new IllegalStateException("take without has: level " + level + " < " + u);
    }
    level -= u;
  }

  /** Whole tokens left (as of the last refill). */
  public long remaining() {
    return level / unitsPerToken;
  }

  /** The bucket's capacity in tokens. */
  public long burst() {
    return burst;
  }

  /** Nanoseconds until the bucket is full again (as of the last refill). */
  public long nanosUntilFull() {
    return Math.ceilDiv(capacity - level, unitsPerNano);
  }

  /** Nanoseconds until {@code cost} tokens are available (0 if they are now). */
  public long nanosUntilAvailable(long cost) {
    long missing = units(cost) - level;
    return missing <= 0 ? 0 : Math.ceilDiv(missing, unitsPerNano);
  }
}
