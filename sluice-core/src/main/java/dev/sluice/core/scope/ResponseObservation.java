package dev.sluice.core.scope;

import dev.sluice.core.classify.Classification;
import dev.sluice.core.headers.RateLimitReading;
import dev.sluice.core.retry.ServerDelay;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * What one response told Sluice about its scope: the verdict, any delay the server asked for,
 * and the rate-limit readings in its headers.
 *
 * @param requestClass the request class of the action that got the response
 * @param classification the verdict on the attempt
 * @param serverDelay the delay the provider asked for ({@code Retry-After}, {@code retry-after-ms})
 * @param rateLimits the rate-limit reading of the headers, any dialect
 * @param receivedAt when the response arrived
 */
public record ResponseObservation(
    String requestClass,
    Classification classification,
    Optional<ServerDelay> serverDelay,
    RateLimitReading rateLimits,
    Instant receivedAt) {
  public ResponseObservation {
    Objects.requireNonNull(requestClass, "requestClass");
    Objects.requireNonNull(classification, "classification");
    Objects.requireNonNull(serverDelay, "serverDelay");
    Objects.requireNonNull(rateLimits, "rateLimits");
    Objects.requireNonNull(receivedAt, "receivedAt");
  }
}
