package dev.sluice.core.scope;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Sluice's local view of one shared quota scope, in the seed's shape:
 *
 * <pre>{@code
 * {"provider": "billing-api", "scope": "account:ops-team", "request_class": "write:invoice",
 *  "next_allowed_at": "2025-04-08T14:12:31Z", "remaining": 0, "reset_after_seconds": 60,
 *  "source": "HTTP 429 Retry-After"}
 * }</pre>
 *
 * <p>The record never mirrors the provider's counter exactly; it keeps Sluice's own workers from
 * racing blindly. {@code next_allowed_at} holds every worker of the scope until it passes.
 *
 * @param provider the provider name from {@code sluice.yaml}
 * @param scope the shared pool (account, token, endpoint family)
 * @param requestClass the request class of the response that last updated the record
 * @param nextAllowedAt no attempt may leave for this scope before this instant; empty when no
 *     hold is in force
 * @param remaining the quota units left, when known
 * @param resetAfterSeconds seconds until the quota resets, as of the update, when known
 * @param source what set the record, e.g. {@code HTTP 429 Retry-After} or {@code RateLimit}
 */
public record ScopeRecord(
    String provider,
    String scope,
    String requestClass,
    Optional<Instant> nextAllowedAt,
    OptionalLong remaining,
    OptionalLong resetAfterSeconds,
    String source) {

  public ScopeRecord {
    Objects.requireNonNull(provider, "provider");
    Objects.requireNonNull(scope, "scope");
    Objects.requireNonNull(requestClass, "requestClass");
    Objects.requireNonNull(nextAllowedAt, "nextAllowedAt");
    Objects.requireNonNull(remaining, "remaining");
    Objects.requireNonNull(resetAfterSeconds, "resetAfterSeconds");
    Objects.requireNonNull(source, "source");
  }
}
