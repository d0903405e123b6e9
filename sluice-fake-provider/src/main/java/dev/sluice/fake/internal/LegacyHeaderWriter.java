package dev.sluice.fake.internal;

import java.time.Instant;
import java.util.OptionalLong;
import java.util.function.BiConsumer;

/** The older draft: {@code RateLimit-Limit}, {@code RateLimit-Remaining}, {@code RateLimit-Reset} (delta seconds to full). */
final class LegacyHeaderWriter implements RateLimitHeaderWriter {
  @Override
  public void write(QuotaSnapshot s, Instant now, OptionalLong retry, BiConsumer<String, String> out) {
    out.accept("RateLimit-Limit", Long.toString(s.limit()));
    out.accept("RateLimit-Remaining", Long.toString(s.remaining()));
    out.accept("RateLimit-Reset", Long.toString(TimeFormats.ceilSeconds(s.nanosUntilFull())));
  }
}
