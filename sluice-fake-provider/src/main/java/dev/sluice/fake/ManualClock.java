package dev.sluice.fake;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A clock that only moves when told to: give it to {@link FakeProvider.Builder#clock} and quota
 * windows, resets and {@code Retry-After} dates follow virtual time. Thread-safe. Zone: UTC.
 */
public final class ManualClock extends Clock {

  private final AtomicReference<Instant> now;

  private ManualClock(Instant start) {
    this.now = new AtomicReference<>(Objects.requireNonNull(start, "start"));
  }

  /** A clock standing at {@code start}. */
  public static ManualClock at(Instant start) {
    return new ManualClock(start);
  }

  /** Moves the clock forward (a negative duration moves it back). Returns the new instant. */
  public Instant advance(Duration d) {
    Objects.requireNonNull(d, "d");
    return now.updateAndGet(i -> i.plus(d));
  }

  /** Sets the clock. */
  public void set(Instant instant) {
    now.set(Objects.requireNonNull(instant, "instant"));
  }

  @Override
  public Instant instant() {
    return now.get();
  }

  @Override
  public ZoneId getZone() {
    return ZoneOffset.UTC;
  }

  /** Returns this clock for UTC; a ManualClock has no other zone. */
  @Override
  public Clock withZone(ZoneId zone) {
    if (ZoneOffset.UTC.equals(zone.normalized())) {
      return this;
    }
    throw new UnsupportedOperationException("a ManualClock is always UTC, not " + zone);
  }

  @Override
  public String toString() {
    return "ManualClock[" + now.get() + "]";
  }
}
