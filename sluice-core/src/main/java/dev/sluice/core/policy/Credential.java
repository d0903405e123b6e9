package dev.sluice.core.policy;

import dev.sluice.core.policy.internal.Syntax;
import java.util.Objects;

/**
 * How Sluice authenticates to a provider ({@code credential}): the header field it sets and the
 * value's format, where {@code {secret}} stands for the secret. The agent never sees the secret;
 * the gateway injects it on the way out and nowhere else.
 *
 * @param header a field name, e.g. {@code Authorization}; not a framing or hop-by-hop field
 * @param format contains {@code {secret}} exactly once, no control characters, e.g. {@code Bearer
 *     {secret}}
 * @param secret where the secret is read from ({@code secret_env} or {@code secret_file}, exactly
 *     one)
 */
public record Credential(String header, String format, SecretRef secret) {
  /** The placeholder the format must contain. */
  public static final String PLACEHOLDER = "{secret}";

  public Credential {
    Objects.requireNonNull(header, "header");
    Objects.requireNonNull(format, "format");
    Objects.requireNonNull(secret, "secret");
    if (!Syntax.isToken(header)) {
      throw new IllegalArgumentException("credential.header must be a header field name, got '" + header + "'");
    }
    if (Syntax.isReservedHeader(header)) {
      throw new IllegalArgumentException("credential.header cannot be '" + header + "': it frames the message");
    }
    // Never echo the format: a user who forgot the placeholder may have pasted the secret there.
    int first = format.indexOf(PLACEHOLDER);
    if (first < 0 || format.indexOf(PLACEHOLDER, first + 1) >= 0) {
      throw new IllegalArgumentException("credential.format must contain {secret} exactly once");
    }
    if (Syntax.hasControl(format)) {
      throw new IllegalArgumentException("credential.format must not contain control characters");
    }
  }

  /** The header value for a secret: the format with {@code {secret}} replaced. */
  public String render(String secretValue) {
    return format.replace(PLACEHOLDER, secretValue);
  }
}
