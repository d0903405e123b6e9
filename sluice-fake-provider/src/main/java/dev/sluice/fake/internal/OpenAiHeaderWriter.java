package dev.sluice.fake.internal;

import java.time.Instant;
import java.util.OptionalLong;
import java.util.function.BiConsumer;

/**
 * OpenAI: {@code x-ratelimit-{limit,remaining,reset}-requests}, the same for {@code -tokens} when a
 * token quota is configured; resets are Go durations until the bucket is full ({@code 6m0s}); a
 * refusal also carries {@code retry-after-ms}.
 */
final class OpenAiHeaderWriter implements RateLimitHeaderWriter {
  @Override
  public void write(QuotaSnapshot s, Instant now, OptionalLong retry, BiConsumer<String, String> out) {
    out.accept("x-ratelimit-limit-requests", Long.toString(s.limit()));
    out.accept("x-ratelimit-remaining-requests", Long.toString(s.remaining()));
    out.accept("x-ratelimit-reset-requests", TimeFormats.goDuration(s.nanosUntilFull()));
    s.tokens().ifPresent(t -> {
      out.accept("x-ratelimit-limit-tokens", Long.toString(t.limit()));
      out.accept("x-ratelimit-remaining-tokens", Long.toString(t.remaining()));
      out.accept("x-ratelimit-reset-tokens", TimeFormats.goDuration(t.nanosUntilFull()));
    });
    retry.ifPresent(n -> out.accept("retry-after-ms", Long.toString(Math.max(1, TimeFormats.ceilMillis(n)))));
  }
}
