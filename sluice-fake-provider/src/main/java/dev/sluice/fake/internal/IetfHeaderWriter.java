package dev.sluice.fake.internal;

import java.time.Instant;
import java.util.OptionalLong;
import java.util.function.BiConsumer;

/**
 * draft-ietf-httpapi-ratelimit-headers: {@code RateLimit-Policy: "default";q=10;w=1} and {@code
 * RateLimit: "default";r=9;t=1}, both RFC 9651 lists of items whose value is the policy name as an
 * sf-string. {@code t} is the seconds until the bucket is full again, rounded up.
 */
final class IetfHeaderWriter implements RateLimitHeaderWriter {
  @Override
  public void write(QuotaSnapshot s, Instant now, OptionalLong retry, BiConsumer<String, String> out) {
    String name = "\"" + s.policy() + "\"";
    out.accept("RateLimit-Policy", name + ";q=" + s.quotaPerWindow() + ";w=" + s.windowSeconds());
    out.accept("RateLimit", name + ";r=" + s.remaining() + ";t=" + TimeFormats.ceilSeconds(s.nanosUntilFull()));
  }
}
