package dev.sluice.core.headers.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.core.headers.RetryAfterForm;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.Locale;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;

/** The internal value parsers: total on any text, and exact on what a formatter writes. */
class HeaderValueParserPropertiesTest {
  static final Instant NOW = Instant.parse("2026-10-21T07:27:00Z");
  static final DateTimeFormatter IMF = DateTimeFormatter.ofPattern("EEE, dd MMM yyyy HH:mm:ss 'GMT'", Locale.US).withZone(ZoneOffset.UTC);
  static final DateTimeFormatter RFC_850 = DateTimeFormatter.ofPattern("EEEE, dd-MMM-yy HH:mm:ss 'GMT'", Locale.US).withZone(ZoneOffset.UTC);
  static final DateTimeFormatter ASCTIME = DateTimeFormatter.ofPattern("EEE MMM ppd HH:mm:ss yyyy", Locale.US).withZone(ZoneOffset.UTC);
  static final DateTimeFormatter RFC_3339 = DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSSSSSSSSXXX", Locale.US);

  @Property(tries = 2000)
  void noValueParserThrowsOnAnyText(@ForAll("texts") String text) {
    assertThat(DurationText.parse(text)).isNotNull();
    assertThat(Rfc3339.parse(text)).isNotNull();
    assertThat(HttpDates.parse(text, NOW)).isNotNull();
    assertThat(HeaderNumbers.nonNegativeInteger(text)).isNotNull();
  }

  @Property
  void everyNonNegativeLongReadsBackAndEveryNegativeOneIsRefused(@ForAll long n) {
    ValueParse<Long> parsed = HeaderNumbers.nonNegativeInteger(Long.toString(n));
    if (n >= 0) {
      assertThat(parsed).isEqualTo(ValueParse.ok(n));
    } else {
      assertThat(parsed).isInstanceOfSatisfying(ValueParse.Refused.class, r -> assertThat(r.why()).contains("negative"));
    }
  }

  @Property
  void whatGoWritesForADurationReadsBackExactly(@ForAll @LongRange(min = 0, max = Long.MAX_VALUE) long nanos) {
    assertThat(DurationText.parse(goString(nanos))).isEqualTo(ValueParse.ok(Duration.ofNanos(nanos)));
  }

  @Property
  void smallDurationsAsGoWritesThemReadBackExactly(@ForAll @LongRange(min = 0, max = 10_000_000_000_000L) long nanos) {
    assertThat(DurationText.parse(goString(nanos))).isEqualTo(ValueParse.ok(Duration.ofNanos(nanos)));
  }

  @Property
  void everyHttpDateFormReadsBackTheInstantItWasWrittenFrom(@ForAll @LongRange(min = -2_208_988_800L, max = 7_258_118_399L) long epochSecond) {
    Instant at = Instant.ofEpochSecond(epochSecond);
    assertThat(HttpDates.parse(IMF.format(at), NOW)).isEqualTo(ValueParse.ok(new HttpDates.HttpDate(at, RetryAfterForm.IMF_FIXDATE)));
    assertThat(HttpDates.parse(ASCTIME.format(at), NOW)).isEqualTo(ValueParse.ok(new HttpDates.HttpDate(at, RetryAfterForm.ASCTIME)));
  }

  @Property
  void rfc850DatesWithinFiftyYearsOfNowReadBackExactly(@ForAll @IntRange(min = -49 * 365, max = 49 * 365) int days, @ForAll @IntRange(min = 0, max = 86_399) int second) {
    Instant at = NOW.truncatedTo(ChronoUnit.DAYS).plus(Duration.ofDays(days)).plusSeconds(second);
    assertThat(HttpDates.parse(RFC_850.format(at), NOW)).isEqualTo(ValueParse.ok(new HttpDates.HttpDate(at, RetryAfterForm.RFC_850)));
  }

  @Property
  void rfc3339ReadsBackTheInstantAtAnyOffset(
      @ForAll @LongRange(min = -62_135_596_800L, max = 253_402_300_799L - 2 * 86_400) long epochSecond,
      @ForAll @IntRange(min = 0, max = 999_999_999) int nanos,
      @ForAll @IntRange(min = -23 * 60 - 59, max = 23 * 60 + 59) int offsetMinutes) {
    Instant at = Instant.ofEpochSecond(epochSecond + 86_400, nanos);
    ZoneOffset offset = ZoneOffset.ofTotalSeconds(offsetMinutes * 60 % (18 * 3600));
    assertThat(Rfc3339.parse(RFC_3339.format(OffsetDateTime.ofInstant(at, offset)))).isEqualTo(ValueParse.ok(at));
  }

  /** Go's time.Duration.String, written from its documented behaviour, independently of the parser. */
  static String goString(long nanos) {
    if (nanos == 0) {
      return "0s";
    }
    if (nanos < 1_000L) {
      return nanos + "ns";
    }
    if (nanos < 1_000_000L) {
      return decimal(nanos, 3) + "\u00b5s";
    }
    if (nanos < 1_000_000_000L) {
      return decimal(nanos, 6) + "ms";
    }
    long minuteNanos = 60_000_000_000L;
    String seconds = decimal(nanos % minuteNanos, 9) + "s";
    long minutes = nanos / minuteNanos;
    if (minutes == 0) {
      return seconds;
    }
    return (minutes / 60 > 0 ? (minutes / 60) + "h" : "") + (minutes % 60) + "m" + seconds;
  }

  private static String decimal(long value, int scale) {
    long unit = (long) Math.pow(10, scale);
    String fraction = String.format("%0" + scale + "d", value % unit).replaceAll("0+$", "");
    return (value / unit) + (fraction.isEmpty() ? "" : "." + fraction);
  }

  @Provide
  Arbitrary<String> texts() {
    return Arbitraries.oneOf(
        Arbitraries.strings(),
        Arbitraries.strings().ascii().ofMaxLength(40),
        Arbitraries.strings().withChars("0123456789.:-+TZhmsun \u00b5").ofMaxLength(40),
        Arbitraries.strings().numeric().ofMaxLength(400));
  }
}
