package dev.sluice.core.headers.internal;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class HeaderNumbersTest {

  @ParameterizedTest(name = "{0}")
  @CsvSource({"0, 0", "007, 7", "4999, 4999", "9223372036854775807, 9223372036854775807",
      "0000000000000000000000000042, 42"})
  void readsNonNegativeIntegers(String text, long expected) {
    assertThat(HeaderNumbers.nonNegativeInteger(text)).isEqualTo(ValueParse.ok(expected));
  }

  @ParameterizedTest(name = "\"{0}\" -> {1}")
  @CsvSource(delimiter = '|', value = {
    "-1 | negative number",
    "'' | empty value",
    "1.0 | expected a non-negative integer",
    "+1 | expected a non-negative integer",
    "' 1' | expected a non-negative integer",
    "1e3 | expected a non-negative integer",
    "\u0661 | expected a non-negative integer",
    "- | expected a non-negative integer",
    "9223372036854775808 | out of range",
    "123456789012345678901234567890 | out of range",
  })
  void refusesWithTheReason(String text, String why) {
    assertThat(HeaderNumbers.nonNegativeInteger(text)).isInstanceOfSatisfying(ValueParse.Refused.class,
        r -> assertThat(r.why()).contains(why));
  }
}
