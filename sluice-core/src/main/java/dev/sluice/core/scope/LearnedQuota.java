package dev.sluice.core.scope;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The request quota of a scope as learned from rate-limit headers, for pacing when no rate is
 * configured. Only request-unit observations are learned (token quotas do not pace requests).
 *
 * @param limit requests allowed per {@code window}, when a response said so
 * @param window the quota window, when a response said so
 * @param remaining requests left as of {@code observedAt}, when known
 * @param resetAt when the provider's counter resets, when known
 * @param observedAt when the response carrying these values was received
 * @param source the header field(s) the values came from
 */
public record LearnedQuota(
    OptionalLong limit, Optional<Duration> window, OptionalLong remaining, Optional<Instant> resetAt, Instant observedAt, String source) {
  public LearnedQuota {
    Objects.requireNonNull(limit, "limit");
    Objects.requireNonNull(window, "window");
    Objects.requireNonNull(remaining, "remaining");
    Objects.requireNonNull(resetAt, "resetAt");
    Objects.requireNonNull(observedAt, "observedAt");
    Objects.requireNonNull(source, "source");
  }

  /** True when both a positive limit and a positive window are known: a rate to pace by. */
  public boolean hasRate() {
    return limit.isPresent() && limit.getAsLong() > 0 && window.isPresent() && !window.get().isZero() && !window.get().isNegative();
  }
}
