package dev.sluice.core.transport;

import dev.sluice.core.policy.internal.Syntax;
import java.util.Objects;

/**
 * The header field that authenticates Sluice to a provider, with its rendered value (the policy's
 * {@code credential.format} with the secret in place). The value is a secret: {@link #toString()}
 * never shows it, and no exception built here contains it.
 *
 * @param name the header field name, e.g. {@code Authorization}
 * @param value the complete field value, e.g. {@code Bearer sk-...}; no control characters
 */
public record CredentialHeader(String name, String value) {
  public CredentialHeader {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(value, "value");
    if (!Syntax.isToken(name) || Syntax.isReservedHeader(name)) {
      throw new IllegalArgumentException("a credential header must be a header field name that does not frame the message, got '" + name + "'");
    }
    if (Syntax.hasControl(value)) {
      // The value is not echoed: it is the secret.
      throw new IllegalArgumentException("the value of credential header " + name + " contains a control character (a line break in the secret?)");
    }
  }

  @Override
  public String toString() {
    return "CredentialHeader[" + name + ": <redacted>]";
  }
}
