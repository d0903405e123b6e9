package dev.sluice.core.transport;

import dev.sluice.core.policy.internal.BaseUrls;
import java.net.URI;
import java.util.Objects;
import java.util.Optional;

/**
 * Where and how the transport reaches one provider: the attempt's origin-form target is appended
 * to {@code baseUrl}, the credential header is set on every attempt (replacing any field of the
 * same name the agent sent), and the action's idempotency key is sent in {@code
 * idempotencyHeader}.
 *
 * @param baseUrl absolute http(s) URL without user information, query or fragment (as a
 *     provider's {@code base_url}); stored without a trailing slash
 * @param credential the header injected on every attempt; absent: none
 * @param idempotencyHeader the header carrying the action's idempotency key; absent: the key is
 *     never sent (the provider has no idempotency support)
 */
public record ProviderEndpoint(URI baseUrl, Optional<CredentialHeader> credential, Optional<String> idempotencyHeader) {
  public ProviderEndpoint {
    Objects.requireNonNull(baseUrl, "baseUrl");
    Objects.requireNonNull(credential, "credential");
    Objects.requireNonNull(idempotencyHeader, "idempotencyHeader");
    Optional<String> bad = BaseUrls.problem(baseUrl);
    if (bad.isPresent()) {
      throw new IllegalArgumentException("base URL: " + bad.get());
    }
    baseUrl = BaseUrls.normalize(baseUrl);
  }

  /** An endpoint without credential or idempotency header. */
  public static ProviderEndpoint of(URI baseUrl) {
    return new ProviderEndpoint(baseUrl, Optional.empty(), Optional.empty());
  }

  public ProviderEndpoint withCredential(CredentialHeader c) {
    return new ProviderEndpoint(baseUrl, Optional.of(c), idempotencyHeader);
  }

  public ProviderEndpoint withIdempotencyHeader(String name) {
    return new ProviderEndpoint(baseUrl, credential, Optional.of(name));
  }
}
