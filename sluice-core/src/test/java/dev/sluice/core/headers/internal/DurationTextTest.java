package dev.sluice.core.headers.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class DurationTextTest {

  @ParameterizedTest(name = "{0} = {1}")
  @CsvSource({
    "12ms, PT0.012S",
    "1s, PT1S",
    "6m0s, PT6M",
    "1h2m3.5s, PT1H2M3.5S",
    "0.5s, PT0.5S",
    "0, PT0S",
    "0s, PT0S",
    "1.5h, PT1H30M",
    "100us, PT0.0001S",
    "100\u00b5s, PT0.0001S",
    "100\u03bcs, PT0.0001S",
    "7ns, PT0.000000007S",
    ".5s, PT0.5S",
    "1.s, PT1S",
    "1s500ms, PT1.5S",
    "007s, PT7S",
    "2562047h47m16.854775807s, PT2562047H47M16.854775807S",
  })
  void readsGoStyleDurations(String text, String expected) {
    assertThat(DurationText.parse(text)).isEqualTo(ValueParse.ok(Duration.parse(expected)));
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"0.0000000009s", "0.9ns"})
  void digitsBelowANanosecondAreDroppedAsInGo(String text) {
    assertThat(DurationText.parse(text)).isEqualTo(ValueParse.ok(Duration.ZERO));
  }

  @ParameterizedTest(name = "\"{0}\"")
  @ValueSource(strings = {
    "", "-1s", "+1s", "1", "s", "1x", "1 s", "1S", "1h ", "1.5.5s", ".s", "1d", "1sec", "\u0661s",
    "2562047h47m16.854775808s", "99999999999999999999h", "9223372036854775807h",
  })
  void refusesEverythingElse(String text) {
    assertThat(DurationText.parse(text)).isInstanceOf(ValueParse.Refused.class);
  }

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource(delimiter = '|', value = {
    "-1s | negative",
    "1 | missing unit",
    "1d | unknown duration unit 'd'",
    "99999999999999999999h | out of range",
    "x | expected a number at position 0",
  })
  void refusalsSayWhy(String text, String why) {
    assertThat(DurationText.parse(text)).isInstanceOfSatisfying(ValueParse.Refused.class,
        r -> assertThat(r.why()).contains(why));
  }
}
