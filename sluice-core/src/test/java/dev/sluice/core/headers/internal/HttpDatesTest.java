package dev.sluice.core.headers.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.core.headers.RetryAfterForm;
import java.time.Instant;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The RFC 850 two-digit year rule (RFC 9110 §5.6.7), which Retry-After's tests cannot see past the cap. */
class HttpDatesTest {

  @ParameterizedTest(name = "now {0}: {1} -> {2}")
  @CsvSource({
    // Not more than 50 years ahead: this century.
    "2026-10-21T07:27:00Z, 'Thursday, 01-Jan-76 00:00:00 GMT', 2076-01-01T00:00:00Z",
    // More than 50 years ahead: the most recent past year with those digits.
    "2026-10-21T07:27:00Z, 'Tuesday, 01-Dec-76 00:00:00 GMT', 1976-12-01T00:00:00Z",
    "2026-10-21T07:27:00Z, 'Sunday, 06-Nov-94 08:49:37 GMT', 1994-11-06T08:49:37Z",
    "2026-10-21T07:27:00Z, 'Wednesday, 21-Oct-26 07:28:00 GMT', 2026-10-21T07:28:00Z",
    // Near a century's end the next century's year is the nearer reading.
    "2099-06-01T00:00:00Z, 'Monday, 01-Jan-01 00:00:00 GMT', 2101-01-01T00:00:00Z",
    "2099-06-01T00:00:00Z, 'Monday, 01-Jan-98 00:00:00 GMT', 2098-01-01T00:00:00Z",
    // 29 Feb only exists in 2000 among 1900/2000/2100.
    "2026-10-21T07:27:00Z, 'Tuesday, 29-Feb-00 00:00:00 GMT', 2000-02-29T00:00:00Z",
  })
  void rfc850TwoDigitYearsFollowTheFiftyYearRule(String now, String text, String expected) {
    assertThat(HttpDates.parse(text, Instant.parse(now)))
        .isEqualTo(ValueParse.ok(new HttpDates.HttpDate(Instant.parse(expected), RetryAfterForm.RFC_850)));
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource({
    "'Sun, 06 Nov 1994 08:49:37 GMT', IMF_FIXDATE",
    "'Sunday, 06-Nov-94 08:49:37 GMT', RFC_850",
    "'Sun Nov  6 08:49:37 1994', ASCTIME",
  })
  void theThreeFormsOfTheRfcExampleAreTheSameInstant(String text, RetryAfterForm form) {
    assertThat(HttpDates.parse(text, Instant.parse("2026-10-21T07:27:00Z")))
        .isEqualTo(ValueParse.ok(new HttpDates.HttpDate(Instant.parse("1994-11-06T08:49:37Z"), form)));
  }

  @ParameterizedTest
  @CsvSource({"-1000000000-01-01T00:00:00Z", "+1000000000-12-31T23:59:59.999999999Z"})
  void extremeNowsDoNotBreakTheYearRule(String now) {
    assertThat(HttpDates.parse("Sunday, 06-Nov-94 08:49:37 GMT", Instant.parse(now))).isNotNull();
  }
}
