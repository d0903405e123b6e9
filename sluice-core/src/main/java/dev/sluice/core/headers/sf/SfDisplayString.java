package dev.sluice.core.headers.sf;

import java.util.Objects;

/**
 * A Display String (RFC 9651 §3.3.8): Unicode text, sent as {@code %"..."} with its UTF-8 bytes
 * outside printable ASCII (and {@code %}, {@code "}) percent-encoded in lower-case hex.
 *
 * @param value the text; must be well-formed UTF-16 (no unpaired surrogate)
 */
public record SfDisplayString(String value) implements BareItem {
  public SfDisplayString {
    Objects.requireNonNull(value, "value");
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (Character.isHighSurrogate(c) && i + 1 < value.length() && Character.isLowSurrogate(value.charAt(i + 1))) {
        i++;
      } else if (Character.isSurrogate(c)) {
        throw new IllegalArgumentException("display string holds an unpaired surrogate at index " + i);
      }
    }
  }

  public static SfDisplayString of(String value) {
    return new SfDisplayString(value);
  }
}
