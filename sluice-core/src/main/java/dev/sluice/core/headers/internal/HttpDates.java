package dev.sluice.core.headers.internal;

import dev.sluice.core.headers.RetryAfterForm;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;

/**
 * Strict parser of the three HTTP-date forms of RFC 9110 §5.6.7.
 *
 * <p>Exact layout, single spaces, {@code GMT}; letters (day and month names, {@code GMT}) are
 * matched ignoring ASCII case. The day name must be a real day name of the right form (short for
 * IMF-fixdate and asctime, long for RFC 850) but is not cross-checked against the date: it is
 * redundant, and refusing a server's date over a wrong weekday would drop its instruction to wait.
 * A second of {@code 60} (leap second) is accepted as the first second of the next minute.
 */
public final class HttpDates {
  private static final String[] SHORT_DAYS = {"Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"};
  private static final String[] LONG_DAYS = {
    "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"
  };
  private static final String[] MONTHS = {
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"
  };

  /** An HTTP-date and the form it was written in. */
  public record HttpDate(Instant instant, RetryAfterForm form) {}

  private HttpDates() {}

  /**
   * Parses {@code text} (already trimmed) as an HTTP-date.
   *
   * @param now used only for the RFC 850 two-digit year: a year that would lie more than 50 years
   *     after {@code now} is taken from the previous century (RFC 9110 §5.6.7)
   */
  public static ValueParse<HttpDate> parse(String text, Instant now) {
    int comma = text.indexOf(',');
    if (comma == 3) {
      return imfFixdate(text);
    }
    if (comma > 3) {
      return rfc850(text, comma, now);
    }
    if (comma < 0 && text.length() > 3 && text.charAt(3) == ' ') {
      return asctime(text);
    }
    return ValueParse.refused("neither delta-seconds nor an HTTP-date (IMF-fixdate, RFC 850 or asctime)");
  }

  // Sun, 06 Nov 1994 08:49:37 GMT
  private static ValueParse<HttpDate> imfFixdate(String s) {
    String why = "malformed IMF-fixdate, expected e.g. 'Sun, 06 Nov 1994 08:49:37 GMT'";
    if (s.length() != 29
        || index(SHORT_DAYS, s.substring(0, 3)) < 0
        || !literal(s, 3, ", ")
        || !FieldText.allDigits(s, 5, 7)
        || s.charAt(7) != ' '
        || s.charAt(11) != ' '
        || !FieldText.allDigits(s, 12, 16)
        || s.charAt(16) != ' '
        || s.charAt(25) != ' '
        || !FieldText.asciiEqualsIgnoreCase(s.substring(26, 29), "GMT")) {
      return ValueParse.refused(why);
    }
    int month = index(MONTHS, s.substring(8, 11));
    int[] time = time(s, 17);
    if (month < 0 || time == null) {
      return ValueParse.refused(why);
    }
    return instant(number(s, 12, 16), month + 1, number(s, 5, 7), time, RetryAfterForm.IMF_FIXDATE);
  }

  // Sunday, 06-Nov-94 08:49:37 GMT
  private static ValueParse<HttpDate> rfc850(String s, int comma, Instant now) {
    String why = "malformed RFC 850 date, expected e.g. 'Sunday, 06-Nov-94 08:49:37 GMT'";
    int p = comma + 1;
    if (index(LONG_DAYS, s.substring(0, comma)) < 0
        || s.length() != p + 23
        || s.charAt(p) != ' '
        || !FieldText.allDigits(s, p + 1, p + 3)
        || s.charAt(p + 3) != '-'
        || s.charAt(p + 7) != '-'
        || !FieldText.allDigits(s, p + 8, p + 10)
        || s.charAt(p + 10) != ' '
        || s.charAt(p + 19) != ' '
        || !FieldText.asciiEqualsIgnoreCase(s.substring(p + 20, p + 23), "GMT")) {
      return ValueParse.refused(why);
    }
    int month = index(MONTHS, s.substring(p + 4, p + 7));
    int[] time = time(s, p + 11);
    if (month < 0 || time == null) {
      return ValueParse.refused(why);
    }
    int day = number(s, p + 1, p + 3);
    int yy = number(s, p + 8, p + 10);
    // RFC 9110: a two-digit year that appears more than 50 years in the future means the most
    // recent past year with those digits. So: of the same two digits in the previous, current and
    // next century, take the latest valid date that is not beyond now + 50 years.
    ZonedDateTime current;
    Instant horizon;
    try {
      current = now.atZone(ZoneOffset.UTC);
      horizon = current.plusYears(50).toInstant();
    } catch (DateTimeException e) {
      return ValueParse.refused("cannot place a two-digit year relative to " + now);
    }
    int base = current.getYear() - Math.floorMod(current.getYear(), 100) + yy;
    ValueParse<HttpDate> chosen = null;
    for (int year : new int[] {base + 100, base, base - 100}) {
      ValueParse<HttpDate> candidate = instant(year, month + 1, day, time, RetryAfterForm.RFC_850);
      if (candidate instanceof ValueParse.Ok<HttpDate> ok && !ok.value().instant().isAfter(horizon)) {
        return candidate;
      }
      if (chosen == null && year == base) {
        chosen = candidate;
      }
    }
    return chosen;
  }

  // Sun Nov  6 08:49:37 1994   (the day may also be written 06)
  private static ValueParse<HttpDate> asctime(String s) {
    String why = "malformed asctime date, expected e.g. 'Sun Nov  6 08:49:37 1994'";
    if (s.length() != 24) {
      return ValueParse.refused(why);
    }
    boolean dayOk =
        (s.charAt(8) == ' ' && FieldText.isDigit(s.charAt(9))) || FieldText.allDigits(s, 8, 10);
    if (index(SHORT_DAYS, s.substring(0, 3)) < 0
        || s.charAt(3) != ' '
        || s.charAt(7) != ' '
        || !dayOk
        || s.charAt(10) != ' '
        || s.charAt(19) != ' '
        || !FieldText.allDigits(s, 20, 24)) {
      return ValueParse.refused(why);
    }
    int month = index(MONTHS, s.substring(4, 7));
    int[] time = time(s, 11);
    if (month < 0 || time == null) {
      return ValueParse.refused(why);
    }
    int day = s.charAt(8) == ' ' ? s.charAt(9) - '0' : number(s, 8, 10);
    return instant(number(s, 20, 24), month + 1, day, time, RetryAfterForm.ASCTIME);
  }

  /** HH:MM:SS at {@code from}, as {hour, minute, second}, or null when malformed or out of range. */
  private static int[] time(String s, int from) {
    if (!FieldText.allDigits(s, from, from + 2)
        || s.charAt(from + 2) != ':'
        || !FieldText.allDigits(s, from + 3, from + 5)
        || s.charAt(from + 5) != ':'
        || !FieldText.allDigits(s, from + 6, from + 8)) {
      return null;
    }
    int h = number(s, from, from + 2);
    int m = number(s, from + 3, from + 5);
    int sec = number(s, from + 6, from + 8);
    return h <= 23 && m <= 59 && sec <= 60 ? new int[] {h, m, sec} : null;
  }

  private static ValueParse<HttpDate> instant(int year, int month, int day, int[] time, RetryAfterForm form) {
    try {
      LocalDateTime t = LocalDateTime.of(year, month, day, time[0], time[1], 0).plusSeconds(time[2]);
      return ValueParse.ok(new HttpDate(t.toInstant(ZoneOffset.UTC), form));
    } catch (DateTimeException e) {
      return ValueParse.refused("not a calendar date: " + year + "-" + month + "-" + day);
    }
  }

  private static boolean literal(String s, int at, String lit) {
    return s.startsWith(lit, at);
  }

  private static int number(String s, int from, int to) {
    return Integer.parseInt(s, from, to, 10);
  }

  private static int index(String[] names, String candidate) {
    for (int i = 0; i < names.length; i++) {
      if (FieldText.asciiEqualsIgnoreCase(names[i], candidate)) {
        return i;
      }
    }
    return -1;
  }
}
