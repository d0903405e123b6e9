package dev.sluice.core.headers.internal;

import java.math.BigDecimal;
import java.time.Duration;

/**
 * Strict parser of Go-style durations as OpenAI writes its {@code x-ratelimit-reset-*} fields:
 * {@code 12ms}, {@code 1s}, {@code 6m0s}, {@code 1h2m3.5s}, {@code 0.5s}.
 *
 * <p>The grammar is Go's {@code time.ParseDuration} without a sign (a reset is never negative):
 * one or more {@code number unit} pairs, where a number is {@code 1*DIGIT ["." *DIGIT]} or {@code
 * "." 1*DIGIT} and the unit is one of {@code h m s ms us µs μs ns} (case-sensitive, as in Go); a
 * lone {@code 0} is zero. No spaces inside. As in Go, the total must fit in 2^63-1 nanoseconds
 * (about 292 years), and digits below a nanosecond are dropped.
 */
public final class DurationText {
  private static final long NANOS_PER_SECOND = 1_000_000_000L;
  private static final int FRACTION_DIGITS_KEPT = 18;

  private DurationText() {}

  /** Parses {@code text} (already trimmed), or refuses it with the reason. */
  public static ValueParse<Duration> parse(String text) {
    if (text.isEmpty()) {
      return ValueParse.refused("empty duration");
    }
    if (text.equals("0")) {
      return ValueParse.ok(Duration.ZERO);
    }
    if (text.charAt(0) == '-') {
      return ValueParse.refused("negative duration");
    }
    if (text.charAt(0) == '+') {
      return ValueParse.refused("a duration must not carry a sign");
    }
    long total = 0;
    int i = 0;
    int n = text.length();
    while (i < n) {
      int intStart = i;
      while (i < n && FieldText.isDigit(text.charAt(i))) {
        i++;
      }
      int intEnd = i;
      int fracStart = i;
      int fracEnd = i;
      if (i < n && text.charAt(i) == '.') {
        fracStart = ++i;
        while (i < n && FieldText.isDigit(text.charAt(i))) {
          i++;
        }
        fracEnd = i;
      }
      if (intEnd == intStart && fracEnd == fracStart) {
        return ValueParse.refused("expected a number at position " + intStart + " of a duration such as 6m0s");
      }
      int unitStart = i;
      while (i < n && text.charAt(i) != '.' && !FieldText.isDigit(text.charAt(i))) {
        i++;
      }
      if (unitStart == i) {
        return ValueParse.refused("missing unit in duration (expected one of h, m, s, ms, us, ns)");
      }
      String unit = text.substring(unitStart, i);
      long unitNanos = unitNanos(unit);
      if (unitNanos < 0) {
        return ValueParse.refused("unknown duration unit " + FieldText.shown(unit) + " (expected one of h, m, s, ms, us, ns)");
      }
      try {
        total = Math.addExact(total, Math.multiplyExact(integer(text, intStart, intEnd), unitNanos));
        total = Math.addExact(total, fractionNanos(text, fracStart, fracEnd, unitNanos));
      } catch (ArithmeticException e) {
        return ValueParse.refused("duration out of range");
      }
    }
    return ValueParse.ok(Duration.ofSeconds(total / NANOS_PER_SECOND, total % NANOS_PER_SECOND));
  }

  private static long unitNanos(String unit) {
    return switch (unit) {
      case "ns" -> 1L;
      case "us", "\u00b5s", "\u03bcs" -> 1_000L;
      case "ms" -> 1_000_000L;
      case "s" -> NANOS_PER_SECOND;
      case "m" -> 60 * NANOS_PER_SECOND;
      case "h" -> 3_600 * NANOS_PER_SECOND;
      default -> -1L;
    };
  }

  /** The integer part; throws ArithmeticException when it cannot fit, which the caller reports. */
  private static long integer(String text, int from, int to) {
    while (from < to && text.charAt(from) == '0') {
      from++;
    }
    if (from == to) {
      return 0;
    }
    if (to - from > 19) {
      throw new ArithmeticException("too many digits");
    }
    try {
      return Long.parseLong(text, from, to, 10);
    } catch (NumberFormatException e) {
      throw new ArithmeticException("too large");
    }
  }

  /** The fraction's worth in nanoseconds, truncated as Go does. */
  private static long fractionNanos(String text, int from, int to, long unitNanos) {
    if (from == to) {
      return 0;
    }
    // A unit is at most 3.6e12 ns, so digits past the 18th are worth less than a nanosecond.
    int end = Math.min(to, from + FRACTION_DIGITS_KEPT);
    return new BigDecimal(text.substring(from, end))
        .movePointLeft(end - from)
        .multiply(BigDecimal.valueOf(unitNanos))
        .longValue();
  }
}
