package dev.sluice.core.engine;

import dev.sluice.core.scope.ScopeId;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * One shared scope's limits: the seed's {@code shared_scope} block plus the optional published
 * {@code rate}.
 *
 * @param id the provider and scope
 * @param maxConcurrentRequests the most attempts in flight at once on the scope (holds even when no
 *     header was seen); at least 1
 * @param maxDelayedRequests the most requests waiting in the scope's queue (held by a gate or
 *     delayed for a retry); a request that would wait beyond this is refused at once with {@code
 *     scope_backpressure}; at least 0
 * @param rate the published quota, when configured; else the pacer uses the quota learned from
 *     headers, if any
 * @param reopenSpread when a hold ({@code next_allowed_at}) is in force, each request waiting for
 *     it gets a due time of {@code next_allowed_at + uniform(0, reopenSpread)}, so workers told the
 *     same {@code Retry-After} do not come back as one burst; default 1 s, zero allowed
 */
public record ScopeSettings(ScopeId id, int maxConcurrentRequests, int maxDelayedRequests, Optional<RateSettings> rate, Duration reopenSpread) {
  /** The default spread of requests released when a hold ends. */
  public static final Duration DEFAULT_REOPEN_SPREAD = Duration.ofSeconds(1);

  public ScopeSettings {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(rate, "rate");
    Objects.requireNonNull(reopenSpread, "reopenSpread");
    if (maxConcurrentRequests < 1) {
      throw new IllegalArgumentException("scope " + id + ": max_concurrent_requests must be at least 1, got " + maxConcurrentRequests);
    }
    if (maxDelayedRequests < 0) {
      throw new IllegalArgumentException("scope " + id + ": max_delayed_requests must not be negative, got " + maxDelayedRequests);
    }
    if (reopenSpread.isNegative()) {
      throw new IllegalArgumentException("scope " + id + ": reopen spread must not be negative, got " + reopenSpread);
    }
  }

  /** The seed's {@code shared_scope} values with no rate and the default spread. */
  public static ScopeSettings of(ScopeId id, int maxConcurrentRequests, int maxDelayedRequests) {
    return new ScopeSettings(id, maxConcurrentRequests, maxDelayedRequests, Optional.empty(), DEFAULT_REOPEN_SPREAD);
  }

  public ScopeSettings withRate(RateSettings r) {
    return new ScopeSettings(id, maxConcurrentRequests, maxDelayedRequests, Optional.of(r), reopenSpread);
  }

  public ScopeSettings withReopenSpread(Duration spread) {
    return new ScopeSettings(id, maxConcurrentRequests, maxDelayedRequests, rate, spread);
  }
}
