package dev.sluice.core.headers;

import dev.sluice.core.headers.internal.DialectFields;
import dev.sluice.core.headers.internal.DurationText;
import dev.sluice.core.http.Headers;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads OpenAI's rate-limit fields:
 *
 * <pre>
 * x-ratelimit-limit-requests: 5000        x-ratelimit-limit-tokens: 160000
 * x-ratelimit-remaining-requests: 4999    x-ratelimit-remaining-tokens: 159980
 * x-ratelimit-reset-requests: 12ms        x-ratelimit-reset-tokens: 6m0s
 * </pre>
 *
 * <p>Limits and remainders are non-negative integers; resets are Go-style durations from {@code
 * now} ({@code 12ms}, {@code 1s}, {@code 6m0s}, {@code 1h2m3.5s}, {@code 0.5s}). One observation
 * per unit whose fields could be read: {@link RateLimitObservation.Unit#REQUESTS} with no
 * partition, {@link RateLimitObservation.Unit#TOKENS} with partition {@code tokens}. No window is
 * sent. These names all end in {@code -requests} or {@code -tokens}, which keeps them apart from
 * GitHub's bare {@code x-ratelimit-limit}. {@code retry-after-ms} is a delay, read by {@link
 * ServerDelayReading}. Malformed values are ignored and noted, never thrown.
 */
public final class OpenAiRateLimitReader implements RateLimitDialectReader {
  private static final String PREFIX = "x-ratelimit-";
  private static final List<String> UNITS = List.of("requests", "tokens");
  // Field names built once (present() runs on every response): limit, remaining, reset per unit.
  private static final java.util.Map<String, String[]> NAMES = java.util.Map.of(
      "requests", new String[] {PREFIX + "limit-requests", PREFIX + "remaining-requests", PREFIX + "reset-requests"},
      "tokens", new String[] {PREFIX + "limit-tokens", PREFIX + "remaining-tokens", PREFIX + "reset-tokens"});

  @Override
  public RateLimitDialect dialect() {
    return RateLimitDialect.OPENAI;
  }

  @Override
  public boolean present(Headers headers) {
    for (String unit : UNITS) {
      String[] n = NAMES.get(unit);
      if (headers.contains(n[0]) || headers.contains(n[1]) || headers.contains(n[2])) {
        return true;
      }
    }
    return false;
  }

  @Override
  public List<RateLimitObservation> read(Headers headers, Instant now, List<HeaderNote> notes) {
    List<RateLimitObservation> out = new ArrayList<>(2);
    for (String unit : UNITS) {
      String[] n = NAMES.get(unit);
      DialectFields.perKind(RateLimitDialect.OPENAI, unit, headers, n[0], n[1], n[2],
          name -> DialectFields.resetAfter(headers, name, now, notes, DurationText::parse), notes).ifPresent(out::add);
    }
    return List.copyOf(out);
  }
}
