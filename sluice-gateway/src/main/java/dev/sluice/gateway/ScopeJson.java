package dev.sluice.gateway;

import dev.sluice.core.scope.ScopeRecord;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.Map;

/** The seed's JSON shape of a scope record, members in the seed's order. */
public final class ScopeJson {
  private ScopeJson() {}

  public static Map<String, Object> of(ScopeRecord r) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("provider", r.provider());
    m.put("scope", r.scope());
    m.put("request_class", r.requestClass());
    m.put("next_allowed_at", r.nextAllowedAt().map(ScopeJson::rfc3339).orElse(null));
    m.put("remaining", r.remaining().isPresent() ? r.remaining().getAsLong() : null);
    m.put("reset_after_seconds", r.resetAfterSeconds().isPresent() ? r.resetAfterSeconds().getAsLong() : null);
    m.put("source", r.source());
    return m;
  }

  /** RFC 3339 in UTC, with milliseconds only when they are not zero ({@code 2025-04-08T14:12:31Z}). */
  public static String rfc3339(Instant i) {
    return DateTimeFormatter.ISO_INSTANT.format(i.truncatedTo(ChronoUnit.MILLIS));
  }
}
