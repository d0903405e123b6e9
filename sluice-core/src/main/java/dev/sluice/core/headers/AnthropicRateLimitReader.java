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
  // Field names built once: present() runs on every response (dialect detection) and concatenating them there was a
  // measurable share of what the gateway allocated per request.
  private static final java.util.Map<String, String[]> NAMES = names();

  private static java.util.Map<String, String[]> names() {
    java.util.Map<String, String[]> m = new java.util.LinkedHashMap<>();
    for (String kind : KINDS) {
      m.put(kind, new String[] {PREFIX + kind + "-limit", PREFIX + kind + "-remaining", PREFIX + kind + "-reset"});
    }
    return java.util.Collections.unmodifiableMap(m);
  }

  @Override
  public RateLimitDialect dialect() {
    return RateLimitDialect.ANTHROPIC;
  }

  @Override
  public boolean present(Headers headers) {
    for (String[] n : NAMES.values()) {
      if (headers.contains(n[0]) || headers.contains(n[1]) || headers.contains(n[2])) {
        return true;
      }
    }
    return false;
  }

  @Override
  public List<RateLimitObservation> read(Headers headers, Instant now, List<HeaderNote> notes) {
    List<RateLimitObservation> out = new ArrayList<>(KINDS.size());
    for (String kind : KINDS) {
      String[] n = NAMES.get(kind);
      DialectFields.perKind(RateLimitDialect.ANTHROPIC, kind, headers, n[0], n[1], n[2],
          name -> DialectFields.value(headers, name, notes, Rfc3339::parse), notes).ifPresent(out::add);
    }
    return List.copyOf(out);
  }
}
