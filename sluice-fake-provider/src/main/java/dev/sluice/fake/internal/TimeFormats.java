package dev.sluice.fake.internal;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.Locale;

/** The time notations the fake writes, each written here and nowhere else. */
public final class TimeFormats {

  private static final long NANOS_PER_SECOND = 1_000_000_000L;
  private static final long NANOS_PER_MILLI = 1_000_000L;

  // RFC 9110 IMF-fixdate: always a two-digit day, unlike RFC_1123_DATE_TIME.
  private static final DateTimeFormatter IMF_FIXDATE =
      DateTimeFormatter.ofPattern("EEE, dd MMM yyyy HH:mm:ss 'GMT'", Locale.US).withZone(ZoneOffset.UTC);

  private TimeFormats() {}

  /** Whole seconds, rounded up: a client that waits this long is never early. */
  public static long ceilSeconds(long nanos) {
    return nanos <= 0 ? 0 : Math.ceilDiv(nanos, NANOS_PER_SECOND);
  }

  /** Whole milliseconds, rounded up. */
  public static long ceilMillis(long nanos) {
    return nanos <= 0 ? 0 : Math.ceilDiv(nanos, NANOS_PER_MILLI);
  }

  /** An IMF-fixdate such as {@code Sun, 06 Nov 1994 08:49:37 GMT} (sub-second part dropped). */
  public static String httpDate(Instant instant) {
    return IMF_FIXDATE.format(instant.truncatedTo(ChronoUnit.SECONDS));
  }

  /** An RFC 3339 timestamp in UTC with second precision, rounded up: {@code 2025-01-01T00:00:01Z}. */
  public static String rfc3339CeilSeconds(Instant instant) {
    Instant up = instant.getNano() == 0 ? instant : instant.truncatedTo(ChronoUnit.SECONDS).plusSeconds(1);
    return DateTimeFormatter.ISO_INSTANT.format(up);
  }

  /** An RFC 3339 timestamp with the instant's own precision, for JSON bodies. */
  public static String rfc3339(Instant instant) {
    return DateTimeFormatter.ISO_INSTANT.format(instant);
  }

  /**
   * A duration the way OpenAI writes resets (Go's {@code time.Duration} notation), rounded up to
   * the millisecond: {@code 0s}, {@code 20ms}, {@code 1s}, {@code 1.5s}, {@code 6m0s}, {@code
   * 1h2m3.004s}.
   */
  public static String goDuration(long nanos) {
    long ms = ceilMillis(nanos);
    if (ms == 0) {
      return "0s";
    }
    if (ms < 1000) {
      return ms + "ms";
    }
    long hours = ms / 3_600_000;
    long minutes = (ms / 60_000) % 60;
    long seconds = (ms / 1000) % 60;
    long millis = ms % 1000;
    StringBuilder b = new StringBuilder();
    if (hours > 0) {
      b.append(hours).append('h');
    }
    if (hours > 0 || minutes > 0) {
      b.append(minutes).append('m');
    }
    b.append(seconds);
    if (millis > 0) {
      String frac = String.format(Locale.ROOT, "%03d", millis);
      b.append('.').append(frac.replaceFirst("0+$", ""));
    }
    return b.append('s').toString();
  }
}
