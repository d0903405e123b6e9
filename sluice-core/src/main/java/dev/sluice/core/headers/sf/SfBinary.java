package dev.sluice.core.headers.sf;

import java.util.Arrays;
import java.util.Base64;
import java.util.Objects;

/**
 * A Byte Sequence (RFC 9651 §3.3.5). The bytes are copied in and out, so the value stays
 * immutable; equality compares content.
 */
public record SfBinary(byte[] value) implements BareItem {
  public SfBinary {
    value = Objects.requireNonNull(value, "value").clone();
  }

  public static SfBinary of(byte[] value) {
    return new SfBinary(value);
  }

  /** A copy of the bytes. */
  @Override
  public byte[] value() {
    return value.clone();
  }

  /** The number of bytes. */
  public int length() {
    return value.length;
  }

  /** The bytes in padded standard base64, as they appear between the colons on the wire. */
  public String base64() {
    return Base64.getEncoder().encodeToString(value);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof SfBinary b && Arrays.equals(b.value, value);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(value);
  }

  @Override
  public String toString() {
    return "SfBinary[:" + base64() + ":]";
  }
}
