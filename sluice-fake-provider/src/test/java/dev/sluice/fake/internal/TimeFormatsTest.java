package dev.sluice.fake.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The notations the fake writes: Go durations, IMF-fixdates, RFC 3339. */
class TimeFormatsTest {

  @ParameterizedTest(name = "{0} ns -> {1}")
  @CsvSource({
      "0, 0s",
      "1, 1ms",
      "20000000, 20ms",
      "999000001, 1s",
      "1000000000, 1s",
      "1500000000, 1.5s",
      "59001000000, 59.001s",
      "360000000000, 6m0s",
      "3723004000000, 1h2m3.004s",
      "3600000000000, 1h0m0s",
  })
  void goDurationsLookLikeOpenAis(long nanos, String expected) {
    assertThat(TimeFormats.goDuration(nanos)).isEqualTo(expected);
  }

  @Test
  void httpDatesAreImfFixdateWithATwoDigitDay() {
    assertThat(TimeFormats.httpDate(Instant.parse("1994-11-06T08:49:37.9Z"))).isEqualTo("Sun, 06 Nov 1994 08:49:37 GMT");
  }

  @Test
  void rfc3339ResetsRoundUp() {
    assertThat(TimeFormats.rfc3339CeilSeconds(Instant.parse("2025-01-01T00:00:00.001Z"))).isEqualTo("2025-01-01T00:00:01Z");
    assertThat(TimeFormats.rfc3339CeilSeconds(Instant.parse("2025-01-01T00:00:00Z"))).isEqualTo("2025-01-01T00:00:00Z");
  }
}
