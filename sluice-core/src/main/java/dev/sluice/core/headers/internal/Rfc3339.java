package dev.sluice.core.headers.internal;

import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;

/**
 * Strict parser of RFC 3339 {@code date-time} values, as Anthropic writes its reset fields:
 * {@code 2026-10-21T07:28:00Z}, {@code 2026-10-21T07:28:00.5+02:00}.
 *
 * <p>Exactly {@code YYYY-MM-DD}, {@code T} (or {@code t}), {@code HH:MM:SS}, an optional fraction
 * of any length (digits past nanoseconds are dropped), then {@code Z} ({@code z}) or {@code
 * ±HH:MM}. Seconds are required; a second of {@code 60} (leap second) reads as the next minute's
 * first second. {@code -00:00} ("offset unknown") is read as UTC.
 */
public final class Rfc3339 {
  private static final String EXPECTED = "expected an RFC 3339 date-time such as 2026-10-21T07:28:00Z";

  private Rfc3339() {}

  /** Parses {@code s} (already trimmed), or refuses it with the reason. */
  public static ValueParse<Instant> parse(String s) {
    if (s.length() < 20
        || !FieldText.allDigits(s, 0, 4)
        || s.charAt(4) != '-'
        || !FieldText.allDigits(s, 5, 7)
        || s.charAt(7) != '-'
        || !FieldText.allDigits(s, 8, 10)
        || (s.charAt(10) != 'T' && s.charAt(10) != 't')
        || !FieldText.allDigits(s, 11, 13)
        || s.charAt(13) != ':'
        || !FieldText.allDigits(s, 14, 16)
        || s.charAt(16) != ':'
        || !FieldText.allDigits(s, 17, 19)) {
      return ValueParse.refused(EXPECTED);
    }
    int i = 19;
    int nanos = 0;
    if (s.charAt(i) == '.') {
      int fracStart = ++i;
      while (i < s.length() && FieldText.isDigit(s.charAt(i))) {
        i++;
      }
      if (i == fracStart) {
        return ValueParse.refused(EXPECTED);
      }
      String kept = s.substring(fracStart, Math.min(i, fracStart + 9));
      nanos = Integer.parseInt(kept) * (int) Math.pow(10, 9 - kept.length());
    }
    int offsetSeconds;
    String zone = s.substring(Math.min(i, s.length()));
    if (zone.equals("Z") || zone.equals("z")) {
      offsetSeconds = 0;
    } else if (zone.length() == 6
        && (zone.charAt(0) == '+' || zone.charAt(0) == '-')
        && FieldText.allDigits(zone, 1, 3)
        && zone.charAt(3) == ':'
        && FieldText.allDigits(zone, 4, 6)) {
      int oh = Integer.parseInt(zone, 1, 3, 10);
      int om = Integer.parseInt(zone, 4, 6, 10);
      if (oh > 23 || om > 59) {
        return ValueParse.refused("offset out of range in " + FieldText.shown(s));
      }
      offsetSeconds = (zone.charAt(0) == '-' ? -1 : 1) * (oh * 3600 + om * 60);
    } else {
      return ValueParse.refused(EXPECTED);
    }
    int hour = Integer.parseInt(s, 11, 13, 10);
    int minute = Integer.parseInt(s, 14, 16, 10);
    int second = Integer.parseInt(s, 17, 19, 10);
    if (hour > 23 || minute > 59 || second > 60) {
      return ValueParse.refused("time out of range in " + FieldText.shown(s));
    }
    try {
      LocalDateTime local =
          LocalDateTime.of(Integer.parseInt(s, 0, 4, 10), Integer.parseInt(s, 5, 7, 10), Integer.parseInt(s, 8, 10, 10), hour, minute, 0, nanos)
              .plusSeconds(second);
      return ValueParse.ok(local.toInstant(ZoneOffset.ofTotalSeconds(offsetSeconds)));
    } catch (DateTimeException e) {
      return ValueParse.refused("not a calendar date in " + FieldText.shown(s));
    }
  }
}
