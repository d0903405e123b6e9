package dev.sluice.core.headers.internal;

import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;

/** Instant arithmetic that cannot throw on the extreme values a hostile header may produce. */
public final class InstantMath {
  private InstantMath() {}

  /** {@code at + d}, or {@link Instant#MAX} / {@link Instant#MIN} when that is out of range. */
  public static Instant plusSaturating(Instant at, Duration d) {
    try {
      return at.plus(d);
    } catch (DateTimeException | ArithmeticException e) {
      return d.isNegative() ? Instant.MIN : Instant.MAX;
    }
  }

  /** {@code at + seconds}, refused when the result is not a representable instant. */
  public static ValueParse<Instant> plusSeconds(Instant at, long seconds) {
    try {
      return ValueParse.ok(at.plusSeconds(seconds));
    } catch (DateTimeException | ArithmeticException e) {
      return ValueParse.refused("reset out of range");
    }
  }

  /** The instant {@code epochSeconds} after 1970-01-01T00:00:00Z, refused when out of range. */
  public static ValueParse<Instant> ofEpochSecond(long epochSeconds) {
    try {
      return ValueParse.ok(Instant.ofEpochSecond(epochSeconds));
    } catch (DateTimeException | ArithmeticException e) {
      return ValueParse.refused("epoch seconds out of range");
    }
  }
}
