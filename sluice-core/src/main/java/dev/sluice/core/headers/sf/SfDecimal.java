package dev.sluice.core.headers.sf;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Objects;

/**
 * A Decimal (RFC 9651 §3.3.2): at most 12 integer and 3 fractional digits.
 *
 * <p>The value is normalized on construction the way RFC 9651 §4.1.5 serializes it: rounded
 * half-to-even to three fractional digits and held with scale 3, so {@code 1.5}, {@code 1.50}
 * and {@code 1.5000} are equal. A value whose rounded integer part has more than 12 digits is
 * refused.
 *
 * @param value the number, always with scale 3
 */
public record SfDecimal(BigDecimal value) implements BareItem {
  private static final BigDecimal LIMIT = new BigDecimal("1000000000000");

  public SfDecimal {
    Objects.requireNonNull(value, "value");
    value = value.setScale(3, RoundingMode.HALF_EVEN);
    if (value.abs().compareTo(LIMIT) >= 0) {
      throw new IllegalArgumentException("structured-field decimal " + value.toPlainString() + " has more than 12 integer digits");
    }
  }

  public static SfDecimal of(String value) {
    return new SfDecimal(new BigDecimal(value));
  }
}
