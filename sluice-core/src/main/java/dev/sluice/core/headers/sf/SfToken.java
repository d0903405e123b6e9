package dev.sluice.core.headers.sf;

import dev.sluice.core.headers.sf.internal.Grammar;
import java.util.Objects;

/**
 * A Token (RFC 9651 §3.3.4): starts with ALPHA or {@code *}, then tchar, {@code :} or {@code /}.
 *
 * @param value the token text, case-sensitive
 */
public record SfToken(String value) implements BareItem {
  public SfToken {
    Objects.requireNonNull(value, "value");
    if (!Grammar.isValidToken(value)) {
      throw new IllegalArgumentException("'" + Grammar.printable(value) + "' is not a structured-field token");
    }
  }

  public static SfToken of(String value) {
    return new SfToken(value);
  }
}
