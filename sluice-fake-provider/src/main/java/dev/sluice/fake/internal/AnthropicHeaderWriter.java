package dev.sluice.fake.internal;

import java.time.Instant;
import java.util.OptionalLong;
import java.util.function.BiConsumer;

/**
 * Anthropic: {@code anthropic-ratelimit-requests-{limit,remaining,reset}} (and {@code -tokens-}
 * when a token quota is configured); a reset is the RFC 3339 instant the bucket is full again,
 * rounded up to the second.
 */
final class AnthropicHeaderWriter implements RateLimitHeaderWriter {
  @Override
  public void write(QuotaSnapshot s, Instant now, OptionalLong retry, BiConsumer<String, String> out) {
    out.accept("anthropic-ratelimit-requests-limit", Long.toString(s.limit()));
    out.accept("anthropic-ratelimit-requests-remaining", Long.toString(s.remaining()));
    out.accept("anthropic-ratelimit-requests-reset", TimeFormats.rfc3339CeilSeconds(now.plusNanos(s.nanosUntilFull())));
    s.tokens().ifPresent(t -> {
      out.accept("anthropic-ratelimit-tokens-limit", Long.toString(t.limit()));
      out.accept("anthropic-ratelimit-tokens-remaining", Long.toString(t.remaining()));
      out.accept("anthropic-ratelimit-tokens-reset", TimeFormats.rfc3339CeilSeconds(now.plusNanos(t.nanosUntilFull())));
    });
  }
}
