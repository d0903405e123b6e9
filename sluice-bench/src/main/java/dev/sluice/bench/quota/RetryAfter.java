package dev.sluice.bench.quota;

import java.time.Duration;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Optional;

/**
 * How the peers read a {@code Retry-After} value: delta-seconds (possibly fractional, as some SDKs
 * accept) or an HTTP-date. Written for the benchmark's peers, independently of Sluice's own parser,
 * so a peer is not given Sluice's reading of the header. Garbage gives empty, never an exception.
 */
final class RetryAfter {
  private RetryAfter() {}

  /**
   * The delay a {@code Retry-After} value asks for.
   *
   * @param value the header value, or null when absent
   * @param nowMillis the client's wall clock, for an HTTP-date
   * @return the delay, never negative; empty when absent or unreadable
   */
  static Optional<Duration> parse(String value, long nowMillis) {
    if (value == null || value.isBlank()) {
      return Optional.empty();
    }
    String v = value.trim();
    try {
      double seconds = Double.parseDouble(v);
      if (!Double.isFinite(seconds) || seconds < 0) {
        return Optional.empty();
      }
      return Optional.of(Duration.ofNanos((long) (seconds * 1e9)));
    } catch (NumberFormatException notANumber) {
      // fall through to the date form
    }
    try {
      long at = ZonedDateTime.parse(v, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant().toEpochMilli();
      return Optional.of(Duration.ofMillis(Math.max(0, at - nowMillis)));
    } catch (DateTimeParseException e) {
      return Optional.empty();
    }
  }
}
