package dev.sluice.core.journal.internal;

import dev.sluice.core.http.Headers;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Keeps only the response fields that shape pacing — {@code Retry-After}, {@code retry-after-ms}
 * and the rate-limit families Sluice reads — so that no other header, and so no secret or cookie,
 * can ever reach the journal. An allowlist, not a denylist: an unknown field is dropped.
 */
public final class RateLimitHeaderFilter {
  private static final Set<String> EXACT = Set.of("retry-after", "retry-after-ms");
  private static final List<String> PREFIXES = List.of("ratelimit", "x-ratelimit-", "x-rate-limit-", "anthropic-ratelimit-");
  /** Longer values are dropped: no rate-limit field needs this much, and rows stay small. */
  static final int MAX_VALUE_LENGTH = 512;
  static final int MAX_FIELDS = 32;

  private RateLimitHeaderFilter() {}

  public static Headers keep(Headers headers) {
    Headers.Builder b = Headers.builder();
    int kept = 0;
    for (String name : headers.names()) {
      if (!allowed(name.toLowerCase(Locale.ROOT))) {
        continue;
      }
      for (String value : headers.all(name)) {
        if (value.length() <= MAX_VALUE_LENGTH && kept < MAX_FIELDS) {
          b.add(name, value);
          kept++;
        }
      }
    }
    return b.build();
  }

  static boolean allowed(String lowerName) {
    if (EXACT.contains(lowerName)) {
      return true;
    }
    for (String p : PREFIXES) {
      if (lowerName.startsWith(p)) {
        return true;
      }
    }
    return false;
  }
}
