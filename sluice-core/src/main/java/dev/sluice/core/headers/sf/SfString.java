package dev.sluice.core.headers.sf;

import dev.sluice.core.headers.sf.internal.Grammar;
import java.util.Objects;

/**
 * A String (RFC 9651 §3.3.3): printable ASCII and space only (%x20-7E). Use
 * {@link SfDisplayString} for other text.
 *
 * @param value the unescaped characters
 */
public record SfString(String value) implements BareItem {
  public SfString {
    Objects.requireNonNull(value, "value");
    int bad = Grammar.invalidStringCharAt(value);
    if (bad >= 0) {
      throw new IllegalArgumentException("structured-field string holds a character outside %x20-7E at index " + bad
          + ": \\u" + String.format("%04x", (int) value.charAt(bad)));
    }
  }

  public static SfString of(String value) {
    return new SfString(value);
  }
}
