package dev.sluice.core.headers.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class Rfc3339Test {

  @ParameterizedTest(name = "{0}")
  @CsvSource({
    "2026-10-21T07:28:00Z, 2026-10-21T07:28:00Z",
    "2026-10-21t07:28:00z, 2026-10-21T07:28:00Z",
    "2026-10-21T09:28:00+02:00, 2026-10-21T07:28:00Z",
    "2026-10-21T02:58:00-04:30, 2026-10-21T07:28:00Z",
    "2026-10-21T07:28:00-00:00, 2026-10-21T07:28:00Z",
    "2026-10-21T07:28:00.5Z, 2026-10-21T07:28:00.500Z",
    "2026-10-21T07:28:00.123456789123Z, 2026-10-21T07:28:00.123456789Z",
    "2016-12-31T23:59:60Z, 2017-01-01T00:00:00Z",
    "2024-02-29T00:00:00Z, 2024-02-29T00:00:00Z",
  })
  void readsRfc3339DateTimes(String text, String expected) {
    assertThat(Rfc3339.parse(text)).isEqualTo(ValueParse.ok(Instant.parse(expected)));
  }

  @ParameterizedTest(name = "\"{0}\"")
  @ValueSource(strings = {
    "", "1792567680", "2026-10-21", "2026-10-21 07:28:00Z", "2026-10-21T07:28Z", "2026-10-21T07:28:00",
    "2026-13-01T00:00:00Z", "2026-02-30T00:00:00Z", "2025-02-29T00:00:00Z", "2026-10-21T24:00:00Z",
    "2026-10-21T07:60:00Z", "2026-10-21T07:28:61Z", "2026-10-21T07:28:00+0200", "2026-10-21T07:28:00+24:00",
    "2026-10-21T07:28:00.Z", "2026-10-21T07:28:00ZZ", "2026-10-21T07:28:00 Z", "+2026-10-21T07:28:00Z",
    "\u0662026-10-21T07:28:00Z", "2026-10-21T07:28:00+02:00x",
  })
  void refusesEverythingElse(String text) {
    assertThat(Rfc3339.parse(text)).isInstanceOf(ValueParse.Refused.class);
  }
}
