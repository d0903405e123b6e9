package dev.sluice.core.headers.internal;

/** Strict, overflow-safe reading of the non-negative integers rate-limit fields carry. */
public final class HeaderNumbers {
  private HeaderNumbers() {}

  /**
   * A non-negative integer written as {@code 1*DIGIT} (leading zeros allowed, no sign, no
   * decimals, no whitespace inside); refused with the reason otherwise, including when it does
   * not fit in a {@code long}.
   */
  public static ValueParse<Long> nonNegativeInteger(String text) {
    if (text.isEmpty()) {
      return ValueParse.refused("empty value");
    }
    if (text.charAt(0) == '-' && text.length() > 1 && FieldText.allDigits(text, 1, text.length())) {
      return ValueParse.refused("negative number");
    }
    if (!FieldText.allDigits(text, 0, text.length())) {
      return ValueParse.refused("expected a non-negative integer");
    }
    int start = 0;
    while (start < text.length() - 1 && text.charAt(start) == '0') {
      start++;
    }
    // 19 significant digits may still fit; more never do. Checking length first keeps a
    // megabyte of digits from reaching the arithmetic.
    if (text.length() - start > 19) {
      return ValueParse.refused("number out of range");
    }
    try {
      return ValueParse.ok(Long.parseLong(text, start, text.length(), 10));
    } catch (NumberFormatException e) {
      return ValueParse.refused("number out of range");
    }
  }
}
