package dev.sluice.core.headers;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class RetryAfterTest {
  static final Instant NOW = Instant.parse("2026-10-21T07:27:00Z");
  static final RetryAfterPolicy DEFAULTS = RetryAfterPolicy.defaults();

  static RetryAfterResult parse(String value) {
    return RetryAfter.parse(value, NOW, DEFAULTS);
  }

  @Nested
  class DeltaSeconds {
    @Test
    void isTheDelayFromNow() {
      RetryAfterResult r = parse("120");
      assertThat(r.delay()).contains(Duration.ofSeconds(120));
      assertThat(r.form()).contains(RetryAfterForm.DELTA_SECONDS);
      assertThat(r.retryAt()).contains(NOW.plusSeconds(120));
      assertThat(r.notes()).isEmpty();
    }

    @Test
    void toleratesSurroundingSpacesAndTabsAndLeadingZeros() {
      assertThat(parse(" \t0030 ").delay()).contains(Duration.ofSeconds(30));
    }

    @Test
    void zeroIsRaisedToTheMinimumWithoutAFlag() {
      RetryAfterResult r = parse("0");
      assertThat(r.delay()).contains(Duration.ofSeconds(1));
      assertThat(r.notes()).isEmpty();
      RetryAfterResult five = RetryAfter.parse("0", NOW, DEFAULTS.withMinimumDelay(Duration.ofSeconds(5)));
      assertThat(five.delay()).contains(Duration.ofSeconds(5));
    }

    @Test
    void aDelayBelowAConfiguredMinimumIsRaisedToIt() {
      RetryAfterPolicy policy = DEFAULTS.withMinimumDelay(Duration.ofSeconds(5));
      assertThat(RetryAfter.parse("2", NOW, policy).delay()).contains(Duration.ofSeconds(5));
      assertThat(RetryAfter.parse("6", NOW, policy).delay()).contains(Duration.ofSeconds(6));
    }

    @Test
    void exactlyTheCapIsNotFlagged() {
      RetryAfterResult r = parse("3600");
      assertThat(r.delay()).contains(Duration.ofHours(1));
      assertThat(r.notes()).isEmpty();
    }

    @Test
    void beyondTheCapIsCappedAndFlagged() {
      RetryAfterResult r = parse("3601");
      assertThat(r.delay()).contains(Duration.ofHours(1));
      assertThat(r.retryAt()).contains(NOW.plus(Duration.ofHours(1)));
      assertThat(r.notes()).singleElement().satisfies(n -> {
        assertThat(n.flag()).isEqualTo(HeaderFlag.CAPPED);
        assertThat(n.header()).isEqualTo("Retry-After");
        assertThat(n.detail()).contains("3601").contains("3600 s");
      });
    }

    @ParameterizedTest
    @ValueSource(strings = {"9223372036854775807", "9223372036854775808", "99999999999999999999999999999999999999"})
    void hugeNumbersAreCappedNotOverflowed(String huge) {
      RetryAfterResult r = parse(huge);
      assertThat(r.delay()).contains(Duration.ofHours(1));
      assertThat(r.notes()).extracting(HeaderNote::flag).containsExactly(HeaderFlag.CAPPED);
    }
  }

  @Nested
  class HttpDates {
    @Test
    void imfFixdateIsTheDelayUntilThatInstant() {
      RetryAfterResult r = parse("Wed, 21 Oct 2026 07:28:00 GMT");
      assertThat(r.delay()).contains(Duration.ofSeconds(60));
      assertThat(r.form()).contains(RetryAfterForm.IMF_FIXDATE);
      assertThat(r.retryAt()).contains(Instant.parse("2026-10-21T07:28:00Z"));
      assertThat(r.notes()).isEmpty();
    }

    @Test
    void obsoleteRfc850FormIsRead() {
      RetryAfterResult r = parse("Wednesday, 21-Oct-26 07:28:00 GMT");
      assertThat(r.delay()).contains(Duration.ofSeconds(60));
      assertThat(r.form()).contains(RetryAfterForm.RFC_850);
    }

    @Test
    void asctimeFormIsReadWithASpacePaddedOrZeroPaddedDay() {
      Instant now = Instant.parse("2026-11-06T08:49:00Z");
      RetryAfterResult spaced = RetryAfter.parse("Fri Nov  6 08:49:37 2026", now, DEFAULTS);
      assertThat(spaced.delay()).contains(Duration.ofSeconds(37));
      assertThat(spaced.form()).contains(RetryAfterForm.ASCTIME);
      assertThat(RetryAfter.parse("Fri Nov 06 08:49:37 2026", now, DEFAULTS).delay()).contains(Duration.ofSeconds(37));
      assertThat(parse("Wed Oct 21 07:28:00 2026").delay()).contains(Duration.ofSeconds(60));
    }

    @Test
    void dayMonthAndZoneNamesAreMatchedIgnoringCase() {
      assertThat(parse("wed, 21 oct 2026 07:28:00 gmt").delay()).contains(Duration.ofSeconds(60));
      assertThat(parse("WEDNESDAY, 21-OCT-26 07:28:00 GMT").delay()).contains(Duration.ofSeconds(60));
      assertThat(parse("WED OCT 21 07:28:00 2026").delay()).contains(Duration.ofSeconds(60));
    }

    @Test
    void surroundingWhitespaceIsTolerated() {
      assertThat(parse("  Wed, 21 Oct 2026 07:28:00 GMT\t").delay()).contains(Duration.ofSeconds(60));
    }

    @Test
    void aWrongWeekdayIsNotHeldAgainstTheDate() {
      // 2026-10-21 is a Wednesday; the weekday is redundant, and refusing would drop the wait.
      assertThat(parse("Mon, 21 Oct 2026 07:28:00 GMT").delay()).contains(Duration.ofSeconds(60));
    }

    @Test
    void aLeapSecondReadsAsTheNextMinute() {
      assertThat(parse("Wed, 21 Oct 2026 07:27:60 GMT").delay()).contains(Duration.ofSeconds(60));
    }

    @Test
    void aDateInThePastIsClockSkewAndGivesTheMinimumDelay() {
      RetryAfterResult r = parse("Sun, 06 Nov 1994 08:49:37 GMT");
      assertThat(r.delay()).contains(Duration.ofSeconds(1));
      assertThat(r.retryAt()).contains(NOW.plusSeconds(1));
      assertThat(r.form()).contains(RetryAfterForm.IMF_FIXDATE);
      assertThat(r.notes()).singleElement().satisfies(n -> {
        assertThat(n.flag()).isEqualTo(HeaderFlag.CLOCK_SKEW);
        assertThat(n.header()).isEqualTo("Retry-After");
        assertThat(n.detail()).contains("1994-11-06T08:49:37Z");
      });
    }

    @Test
    void aDateEqualToNowIsClockSkewToo() {
      RetryAfterResult r = parse("Wed, 21 Oct 2026 07:27:00 GMT");
      assertThat(r.delay()).contains(Duration.ofSeconds(1));
      assertThat(r.notes()).extracting(HeaderNote::flag).containsExactly(HeaderFlag.CLOCK_SKEW);
    }

    @Test
    void aFutureDateCloserThanTheMinimumIsRaisedWithoutAFlag() {
      Instant now = Instant.parse("2026-10-21T07:27:59.600Z");
      RetryAfterResult r = RetryAfter.parse("Wed, 21 Oct 2026 07:28:00 GMT", now, DEFAULTS);
      assertThat(r.delay()).contains(Duration.ofSeconds(1));
      assertThat(r.notes()).isEmpty();
    }

    @Test
    void aFarFutureDateIsCappedAndFlagged() {
      RetryAfterResult r = parse("Fri, 31 Dec 9999 23:59:59 GMT");
      assertThat(r.delay()).contains(Duration.ofHours(1));
      assertThat(r.notes()).extracting(HeaderNote::flag).containsExactly(HeaderFlag.CAPPED);
    }
  }

  @Nested
  class Garbage {
    @ParameterizedTest
    @ValueSource(strings = {
      "", "   ", "-1", "+5", "1.5", "10s", "1 0", "ten", "0x10", "\u0663", "\uff11\uff10",
      "Wed, 21 Oct 2026 07:28:00 UTC",
      "Wed, 21 Oct 2026 07:28 GMT",
      "Wed,21 Oct 2026 07:28:00 GMT",
      "Wed, 21 Oct 2026  07:28:00 GMT",
      "Wed, 1 Oct 2026 07:28:00 GMT",
      "Wed, 32 Oct 2026 07:28:00 GMT",
      "Wed, 31 Feb 2026 07:28:00 GMT",
      "Wed, 21 Oct 2026 24:00:00 GMT",
      "Wed, 21 Oct 2026 07:60:00 GMT",
      "Wed, 21 Okt 2026 07:28:00 GMT",
      "Xyz, 21 Oct 2026 07:28:00 GMT",
      "Wednesday, 21 Oct 2026 07:28:00 GMT",
      "Wed, 21-Oct-26 07:28:00 GMT",
      "Wednesday, 21-Oct-2026 07:28:00 GMT",
      "Wed Oct 21 07:28:00 26",
      "Wed Oct 21 07:28:00 2026 GMT",
      "Wed Oct  21 07:28:00 2026",
      "2026-10-21T07:28:00Z",
      "\u017fun, 06 Nov 1994 08:49:37 GMT",
    })
    void isIgnoredAndFlaggedNeverThrown(String value) {
      RetryAfterResult r = parse(value);
      assertThat(r.isPresent()).isFalse();
      assertThat(r.delay()).isEmpty();
      assertThat(r.form()).isEmpty();
      assertThat(r.retryAt()).isEmpty();
      assertThat(r.notes()).singleElement().satisfies(n -> {
        assertThat(n.flag()).isEqualTo(HeaderFlag.MALFORMED_HEADER_IGNORED);
        assertThat(n.header()).isEqualTo("Retry-After");
      });
    }

    @Test
    void theNoteSaysWhyAndShowsTheValueSafely() {
      HeaderNote n = parse("-1").notes().get(0);
      assertThat(n.detail()).contains("sign").contains("'-1'");
      HeaderNote control = parse("x\u0007y").notes().get(0);
      assertThat(control.detail()).contains("'x?y'");
      HeaderNote longOne = parse("z".repeat(500)).notes().get(0);
      assertThat(longOne.detail()).hasSizeLessThan(200).contains("...");
    }
  }

  @Nested
  class RetryAfterMs {
    final RetryAfterPolicy fine = new RetryAfterPolicy(Duration.ofNanos(1), Duration.ofHours(1));

    @Test
    void integerMillisecondsAreTheDelay() {
      RetryAfterResult r = RetryAfter.parseMillis("512", NOW, fine);
      assertThat(r.delay()).contains(Duration.ofMillis(512));
      assertThat(r.form()).contains(RetryAfterForm.DELTA_MILLISECONDS);
      assertThat(r.retryAt()).contains(NOW.plusMillis(512));
    }

    @Test
    void decimalMillisecondsKeepTheirFraction() {
      assertThat(RetryAfter.parseMillis("1500.25", NOW, fine).delay()).contains(Duration.ofNanos(1_500_250_000));
      assertThat(RetryAfter.parseMillis(" 20.5 ", NOW, fine).delay()).contains(Duration.ofNanos(20_500_000));
    }

    @Test
    void subNanosecondFractionsRoundUp() {
      assertThat(RetryAfter.parseMillis("0.000001", NOW, fine).delay()).contains(Duration.ofNanos(1));
      assertThat(RetryAfter.parseMillis("0.0000011", NOW, fine).delay()).contains(Duration.ofNanos(2));
      assertThat(RetryAfter.parseMillis("0.00000100000000001", NOW, fine).delay()).contains(Duration.ofNanos(2));
    }

    @Test
    void isBoundedByThePolicyLikeRetryAfter() {
      RetryAfterResult small = RetryAfter.parseMillis("512", NOW, DEFAULTS);
      assertThat(small.delay()).contains(Duration.ofSeconds(1));
      assertThat(small.notes()).isEmpty();
      RetryAfterResult huge = RetryAfter.parseMillis("1" + "0".repeat(40), NOW, DEFAULTS);
      assertThat(huge.delay()).contains(Duration.ofHours(1));
      assertThat(huge.notes()).singleElement().satisfies(n -> {
        assertThat(n.flag()).isEqualTo(HeaderFlag.CAPPED);
        assertThat(n.header()).isEqualTo("retry-after-ms");
      });
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "-5", "-0.5", "1e3", ".5", "5.", "1,5", "NaN", "Infinity", "5 ms", "+5", "\u0665"})
    void garbageIsIgnoredAndFlagged(String value) {
      RetryAfterResult r = RetryAfter.parseMillis(value, NOW, DEFAULTS);
      assertThat(r.delay()).isEmpty();
      assertThat(r.notes()).singleElement().satisfies(n -> {
        assertThat(n.flag()).isEqualTo(HeaderFlag.MALFORMED_HEADER_IGNORED);
        assertThat(n.header()).isEqualTo("retry-after-ms");
      });
    }

    @Test
    void negativeMillisecondsSayNegative() {
      assertThat(RetryAfter.parseMillis("-5", NOW, DEFAULTS).notes().get(0).detail()).contains("negative");
    }
  }
}
