package dev.sluice.core.internal;

import dev.sluice.core.policy.Credential;
import dev.sluice.core.policy.Provider;
import dev.sluice.core.policy.SecretRef;
import dev.sluice.core.transport.CredentialHeader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.Optional;
import java.util.function.Function;

/**
 * Reads provider secrets and renders credential headers. Messages name the provider and the
 * reference ({@code env BILLING_API_TOKEN}, {@code file /run/secrets/x}), never a value.
 */
public final class Secrets {
  private Secrets() {}

  /**
   * The credential header of a provider, or empty when it has no credential.
   *
   * @param env looks an environment variable up
   * @throws IllegalStateException when the secret is missing, unreadable, empty or not a valid header value
   */
  public static Optional<CredentialHeader> credentialHeader(Provider p, Function<String, Optional<String>> env) {
    if (p.credential().isEmpty()) {
      return Optional.empty();
    }
    Credential c = p.credential().get();
    String secret = read(p.id(), c.secret(), env);
    try {
      return Optional.of(new CredentialHeader(c.header(), c.render(secret)));
    } catch (IllegalArgumentException e) {
      throw new IllegalStateException("provider '" + p.id() + "': the secret from " + c.secret().describe() + " cannot be sent in a header: "
          + e.getMessage());
    }
  }

  private static String read(String provider, SecretRef ref, Function<String, Optional<String>> env) {
    String value = switch (ref) {
      case SecretRef.Env e -> env.apply(e.variable()).orElseThrow(() -> new IllegalStateException(
          "provider '" + provider + "': the credential's secret_env " + e.variable() + " is not set"));
      case SecretRef.File f -> {
        try {
          yield Files.readString(f.path(), StandardCharsets.UTF_8);
        } catch (IOException | RuntimeException x) {
          throw new IllegalStateException("provider '" + provider + "': the credential's secret_file " + f.path() + " cannot be read ("
              + x.getClass().getSimpleName() + ")");
        }
      }
    };
    String trimmed = stripTrailingLineBreaks(value);
    if (trimmed.isEmpty()) {
      throw new IllegalStateException("provider '" + provider + "': the credential's secret (" + ref.describe() + ") is empty");
    }
    return trimmed;
  }

  static String stripTrailingLineBreaks(String s) {
    int end = s.length();
    while (end > 0 && (s.charAt(end - 1) == '\n' || s.charAt(end - 1) == '\r')) {
      end--;
    }
    return s.substring(0, end);
  }
}
