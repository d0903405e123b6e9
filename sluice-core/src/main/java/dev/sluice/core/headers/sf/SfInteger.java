package dev.sluice.core.headers.sf;

import dev.sluice.core.headers.sf.internal.Grammar;

/**
 * An Integer (RFC 9651 §3.3.1): at most 15 decimal digits, so within ±999,999,999,999,999.
 *
 * @param value the number
 */
public record SfInteger(long value) implements BareItem {
  public SfInteger {
    if (value > Grammar.MAX_INTEGER || value < -Grammar.MAX_INTEGER) {
      throw new IllegalArgumentException("structured-field integer " + value + " has more than 15 digits");
    }
  }

  public static SfInteger of(long value) {
    return new SfInteger(value);
  }
}
