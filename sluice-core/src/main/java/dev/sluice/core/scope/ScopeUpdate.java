package dev.sluice.core.scope;

import dev.sluice.core.classify.Classification;
import dev.sluice.core.policy.QuotaReset;
import dev.sluice.core.classify.Verdict;
import dev.sluice.core.headers.RateLimitObservation;
import dev.sluice.core.headers.RateLimitReading;
import dev.sluice.core.headers.RetryAfterPolicy;
import dev.sluice.core.retry.ServerDelay;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * What one response says about its shared scope, to be published before any retry is scheduled
 * (DESIGN.md §3 rule 1).
 *
 * <ul>
 *   <li>A rate limit (429, GitHub-style 403) holds the scope: {@code holdUntil = now + server
 *       delay} (Retry-After, retry-after-ms or an exhausted pool's reset), or {@code now +} the
 *       minimum delay when the provider gave none; {@code remaining = 0}.
 *   <li>Quota exhaustion holds the scope until its reset: the server's delay when given, else the
 *       next UTC midnight for a {@code daily} reset; a {@code billing} reset has no known end and
 *       holds nothing here (a person decides, by the escalation path).
 *   <li>Any other response with rate-limit fields updates {@code remaining} and {@code
 *       reset_after_seconds} from the most constrained pool; it holds the scope only when that
 *       pool is exhausted, until its reset, but never longer than the policy's cap; a reset at most
 *       {@link #SHORT_RESET} away holds nothing here (the pacer spaces the next send).
 * </ul>
 *
 * <p>Applying an update never moves {@code next_allowed_at} earlier: rate-limit fields shape
 * future pacing, they never clear a 429 already received.
 *
 * @param holdUntil no attempt may leave for the scope before this instant
 * @param remaining quota units left, when known
 * @param resetAfterSeconds seconds until the quota resets, when known
 * @param source what the update came from, in the seed's wording ({@code HTTP 429 Retry-After})
 */
public record ScopeUpdate(Optional<Instant> holdUntil, OptionalLong remaining, OptionalLong resetAfterSeconds, String source) {

  /**
   * A remaining count of 0 with a reset at most this far away holds nothing at the scope: that is
   * the resolution of whole-second headers, and the engine's pacer decides the next send.
   */
  public static final Duration SHORT_RESET = Duration.ofSeconds(1);

  public ScopeUpdate {
    Objects.requireNonNull(holdUntil, "holdUntil");
    Objects.requireNonNull(remaining, "remaining");
    Objects.requireNonNull(resetAfterSeconds, "resetAfterSeconds");
    Objects.requireNonNull(source, "source");
  }

  /** The update a response implies, or empty when it says nothing about the scope. */
  public static Optional<ScopeUpdate> after(Classification result, Optional<ServerDelay> serverDelay, RateLimitReading rateLimits,
      Instant now, RetryAfterPolicy policy) {
    Optional<RateLimitObservation> pool = rateLimits.mostConstrained();
    OptionalLong resetFromHeaders = pool.flatMap(o -> o.resetAfter(now)).map(d -> OptionalLong.of(ceilSeconds(d))).orElse(OptionalLong.empty());
    String status = result.status().isPresent() ? "HTTP " + result.status().getAsInt() : "transport failure";
    Verdict v = result.verdict();
    if (v == Verdict.RATE_LIMITED) {
      Duration delay = serverDelay.map(ServerDelay::delay).orElse(policy.minimumDelay());
      String source = status + serverDelay.map(s -> " " + s.header()).orElse(" (no delay given: minimum " + policy.minimumDelay().toSeconds() + " s)");
      OptionalLong resetAfter = resetFromHeaders.isPresent() ? resetFromHeaders : OptionalLong.of(ceilSeconds(delay));
      return Optional.of(new ScopeUpdate(Optional.of(now.plus(delay)), OptionalLong.of(0), resetAfter, source));
    }
    if (v == Verdict.QUOTA_EXHAUSTED) {
      QuotaReset kind = result.quotaRule().orElseThrow().reset();
      Optional<Instant> until = serverDelay.map(s -> now.plus(s.delay()));
      if (until.isEmpty() && kind == QuotaReset.DAILY) {
        until = Optional.of(now.atOffset(ZoneOffset.UTC).toLocalDate().plusDays(1).atStartOfDay().toInstant(ZoneOffset.UTC));
      }
      OptionalLong resetAfter = until.map(u -> OptionalLong.of(ceilSeconds(Duration.between(now, u)))).orElse(resetFromHeaders);
      return Optional.of(new ScopeUpdate(until, OptionalLong.of(0), resetAfter, status + " quota exhausted (" + kind.configName() + " reset)"));
    }
    if (pool.isEmpty()) {
      return Optional.empty();
    }
    RateLimitObservation o = pool.get();
    // The reset comes straight from a header: bound the hold by the same cap as any server delay,
    // or one absurd "r=0;t=999999999" would freeze the whole scope for centuries.
    Instant latest = now.plus(policy.cap());
    // A reset within the headers' one-second resolution holds nothing here: for a token bucket it
    // is the instant the bucket is full, not when its next unit comes, and the scope's pacer
    // (which knows the rate) spaces the next send instead (Pacer.HEADER_RESOLUTION).
    Instant shortest = now.plus(SHORT_RESET);
    Optional<Instant> hold = o.remaining().isPresent() && o.remaining().getAsLong() == 0
        ? o.resetAt().filter(r -> r.isAfter(shortest)).map(r -> r.isAfter(latest) ? latest : r)
        : Optional.empty();
    return Optional.of(new ScopeUpdate(hold, o.remaining(), resetFromHeaders, o.sourceHeader()));
  }

  /**
   * The record after this update. {@code next_allowed_at} only moves later; the other fields take
   * the update's values where it has them; {@code source} keeps explaining the hold in force.
   */
  public ScopeRecord applyTo(ScopeRecord before, String requestClass) {
    Optional<Instant> next = before.nextAllowedAt();
    boolean moved = holdUntil.isPresent() && (next.isEmpty() || holdUntil.get().isAfter(next.get()));
    if (moved) {
      next = holdUntil;
    }
    // The source explains next_allowed_at: an update that leaves an existing hold in place keeps it.
    String why = moved || before.nextAllowedAt().isEmpty() ? source : before.source();
    return new ScopeRecord(before.provider(), before.scope(), requestClass, next,
        remaining.isPresent() ? remaining : before.remaining(),
        resetAfterSeconds.isPresent() ? resetAfterSeconds : before.resetAfterSeconds(), why);
  }

  private static long ceilSeconds(Duration d) {
    long s = d.getSeconds();
    return d.getNano() > 0 ? s + 1 : s;
  }

}
