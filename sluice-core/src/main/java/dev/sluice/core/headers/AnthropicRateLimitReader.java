package dev.sluice.core.headers;

import dev.sluice.core.headers.internal.DialectFields;
import dev.sluice.core.headers.internal.Rfc3339;
import dev.sluice.core.http.Headers;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads Anthropic's rate-limit fields {@code anthropic-ratelimit-KIND-{limit,remaining,reset}}
 * for KIND in {@code requests}, {@code tokens}, {@code input-tokens}, {@code output-tokens}:
 *
 * <pre>
 * anthropic-ratelimit-requests-limit: 50
 * anthropic-ratelimit-requests-remaining: 49
 * anthropic-ratelimit-requests-reset: 2026-10-21T07:28:00Z
 * </pre>
 *
 * <p>Limits and remainders are non-negative integers; resets are RFC 3339 date-times. One
 * observation per kind whose fields could be read: {@link RateLimitObservation.Unit#REQUESTS} with
 * no partition for {@code requests}; {@link RateLimitObservation.Unit#TOKENS} with the kind as
 * partition ({@code tokens}, {@code input-tokens}, {@code output-tokens}) for the others. No
 * window is sent. Other {@code anthropic-ratelimit-*} fields are not read. Malformed values are
 * ignored and noted, never thrown.
 */
public final class AnthropicRateLimitReader implements RateLimitDialectReader {
  private static final String PREFIX = "anthropic-ratelimit-";
  private static final List<String> KINDS = List.of("requests", "tokens", "input-tokens", "output-tokens");

  @Override
  public RateLimitDialect dialect() {
    return RateLimitDialect.ANTHROPIC;
  }

  @Override
  public boolean present(Headers headers) {
    for (String kind : KINDS) {
      if (headers.contains(name(kind, "limit")) || headers.contains(name(kind, "remaining")) || headers.contains(name(kind, "reset"))) {
        return true;
      }
    }
    return false;
  }

  @Override
  public List<RateLimitObservation> read(Headers headers, Instant now, List<HeaderNote> notes) {
    List<RateLimitObservation> out = new ArrayList<>(KINDS.size());
    for (String kind : KINDS) {
      DialectFields.perKind(RateLimitDialect.ANTHROPIC, kind, headers, name(kind, "limit"), name(kind, "remaining"), name(kind, "reset"),
          name -> DialectFields.value(headers, name, notes, Rfc3339::parse), notes).ifPresent(out::add);
    }
    return List.copyOf(out);
  }

  private static String name(String kind, String what) {
    return PREFIX + kind + "-" + what;
  }
}
