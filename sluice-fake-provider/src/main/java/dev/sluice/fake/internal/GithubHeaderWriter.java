package dev.sluice.fake.internal;

import java.time.Instant;
import java.util.OptionalLong;
import java.util.function.BiConsumer;

/**
 * GitHub: {@code x-ratelimit-{limit,remaining,used,reset,resource}}; reset in epoch seconds
 * (rounded up) when the bucket is full again; the default policy is GitHub's {@code core} resource,
 * a family with its own quota is its own resource.
 */
final class GithubHeaderWriter implements RateLimitHeaderWriter {
  @Override
  public void write(QuotaSnapshot s, Instant now, OptionalLong retry, BiConsumer<String, String> out) {
    Instant full = now.plusNanos(s.nanosUntilFull());
    long resetEpoch = full.getEpochSecond() + (full.getNano() > 0 ? 1 : 0);
    out.accept("x-ratelimit-limit", Long.toString(s.limit()));
    out.accept("x-ratelimit-remaining", Long.toString(s.remaining()));
    out.accept("x-ratelimit-used", Long.toString(s.used()));
    out.accept("x-ratelimit-reset", Long.toString(resetEpoch));
    out.accept("x-ratelimit-resource", s.policy().equals("default") ? "core" : s.policy());
  }
}
