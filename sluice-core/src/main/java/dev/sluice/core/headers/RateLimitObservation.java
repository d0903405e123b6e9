package dev.sluice.core.headers;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * One normalized reading of a provider's rate-limit state, whatever dialect it came in.
 *
 * <p>Every member but {@code unit}, {@code dialect} and {@code sourceHeader} is optional because
 * dialects send different subsets. Observations shape future pacing only; they never clear a
 * 429 already received (DESIGN.md §3 rule 3).
 *
 * @param dialect the dialect the fields belonged to
 * @param unit what is counted: requests or tokens
 * @param partition the quota partition or policy name when the provider names one (IETF policy
 *     name or {@code pk}, GitHub {@code x-ratelimit-resource}, OpenAI/Anthropic token kind); empty
 *     for the default pool
 * @param limit the quota in the window, if sent
 * @param remaining the quota units left, if sent
 * @param window the length of the quota window, if sent
 * @param resetAt the instant the quota resets (absolute, computed against the {@code now} given to
 *     the parser), if sent
 * @param sourceHeader the header field(s) the values came from, for operators ({@code RateLimit},
 *     {@code x-ratelimit-remaining-requests}, ...)
 */
public record RateLimitObservation(
    RateLimitDialect dialect,
    Unit unit,
    Optional<String> partition,
    OptionalLong limit,
    OptionalLong remaining,
    Optional<Duration> window,
    Optional<Instant> resetAt,
    String sourceHeader) {

  /** What a quota counts. */
  public enum Unit {
    REQUESTS,
    TOKENS;

    public String code() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }
  }

  public RateLimitObservation {
    Objects.requireNonNull(dialect, "dialect");
    Objects.requireNonNull(unit, "unit");
    Objects.requireNonNull(partition, "partition");
    Objects.requireNonNull(limit, "limit");
    Objects.requireNonNull(remaining, "remaining");
    Objects.requireNonNull(window, "window");
    Objects.requireNonNull(resetAt, "resetAt");
    Objects.requireNonNull(sourceHeader, "sourceHeader");
    if (dialect == RateLimitDialect.AUTO) {
      throw new IllegalArgumentException("an observation belongs to a concrete dialect, not AUTO");
    }
  }

  /** Seconds from {@code now} until {@link #resetAt()}, never negative. */
  public Optional<Duration> resetAfter(Instant now) {
    return resetAt.map(r -> r.isAfter(now) ? Duration.between(now, r) : Duration.ZERO);
  }
}
