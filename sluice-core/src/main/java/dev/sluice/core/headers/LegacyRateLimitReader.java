package dev.sluice.core.headers;

import dev.sluice.core.headers.internal.DialectFields;
import dev.sluice.core.headers.internal.FieldText;
import dev.sluice.core.headers.internal.HeaderNumbers;
import dev.sluice.core.headers.internal.InstantMath;
import dev.sluice.core.headers.internal.ValueParse;
import dev.sluice.core.http.Headers;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Reads the older, pre-structured-field rate-limit fields of draft-ietf-httpapi-ratelimit-headers
 * up to draft-03 (the RFC 9333 era), still sent by many servers and gateways:
 *
 * <pre>
 * RateLimit-Limit: 100, 100;w=60
 * RateLimit-Remaining: 37
 * RateLimit-Reset: 20
 * </pre>
 *
 * <ul>
 *   <li>{@code RateLimit-Limit}: the first number is the limit; the quota-policy elements that may
 *       follow ({@code 100;w=60}) give the window, taken from the first element whose number equals
 *       the limit and that carries {@code w=} (seconds, positive). Other parameters are ignored.
 *       Lines are combined, since the field is a list.
 *   <li>{@code RateLimit-Remaining}: a non-negative integer.
 *   <li>{@code RateLimit-Reset}: delta-seconds until the quota resets (not an epoch time).
 * </ul>
 *
 * <p>One {@link RateLimitObservation.Unit#REQUESTS} observation with no partition, when at least
 * one of the three could be read. Malformed values are ignored and noted, never thrown.
 */
public final class LegacyRateLimitReader implements RateLimitDialectReader {
  public static final String LIMIT = "RateLimit-Limit";
  public static final String REMAINING = "RateLimit-Remaining";
  public static final String RESET = "RateLimit-Reset";

  @Override
  public RateLimitDialect dialect() {
    return RateLimitDialect.LEGACY;
  }

  @Override
  public boolean present(Headers headers) {
    return headers.contains(LIMIT) || headers.contains(REMAINING) || headers.contains(RESET);
  }

  @Override
  public List<RateLimitObservation> read(Headers headers, Instant now, List<HeaderNote> notes) {
    DialectFields.Sources sources = new DialectFields.Sources();
    OptionalLong limit = OptionalLong.empty();
    Optional<Duration> window = Optional.empty();
    Optional<String> limitText = headers.combined(LIMIT).map(FieldText::trimOws);
    if (limitText.isPresent()) {
      List<String> elements = List.of(limitText.get().split(",", -1));
      ValueParse<Long> first = HeaderNumbers.nonNegativeInteger(FieldText.trimOws(elements.get(0).split(";", -1)[0]));
      switch (first) {
        case ValueParse.Ok<Long> ok -> {
          limit = OptionalLong.of(ok.value());
          window = window(elements, ok.value(), notes);
        }
        case ValueParse.Refused<Long> r -> DialectFields.malformed(notes, LIMIT, "limit: " + r.why(), limitText.get());
      }
      sources.used(LIMIT, limit.isPresent());
    }
    OptionalLong remaining = DialectFields.count(headers, REMAINING, notes);
    sources.used(REMAINING, remaining.isPresent());
    Optional<Instant> resetAt = DialectFields.value(headers, RESET, notes, text -> switch (HeaderNumbers.nonNegativeInteger(text)) {
      case ValueParse.Ok<Long> ok -> InstantMath.plusSeconds(now, ok.value());
      case ValueParse.Refused<Long> r -> ValueParse.refused(r.why() + "; expected delta-seconds");
    });
    sources.used(RESET, resetAt.isPresent());
    if (sources.isEmpty()) {
      return List.of();
    }
    return List.of(new RateLimitObservation(
        RateLimitDialect.LEGACY, RateLimitObservation.Unit.REQUESTS, Optional.empty(),
        limit, remaining, window, resetAt, sources.toString()));
  }

  private static Optional<Duration> window(List<String> elements, long limit, List<HeaderNote> notes) {
    List<String> badWindows = new ArrayList<>();
    for (String element : elements) {
      String[] parts = element.split(";", -1);
      boolean sameQuota = HeaderNumbers.nonNegativeInteger(FieldText.trimOws(parts[0])) instanceof ValueParse.Ok<Long> ok
          && ok.value() == limit;
      for (int i = 1; i < parts.length; i++) {
        String param = FieldText.trimOws(parts[i]);
        if (!param.startsWith("w=")) {
          continue;
        }
        ValueParse<Long> w = HeaderNumbers.nonNegativeInteger(param.substring(2));
        if (w instanceof ValueParse.Ok<Long> seconds && seconds.value() > 0) {
          if (sameQuota) {
            return Optional.of(Duration.ofSeconds(seconds.value()));
          }
        } else {
          badWindows.add(param);
        }
      }
    }
    if (!badWindows.isEmpty()) {
      DialectFields.malformed(notes, LIMIT, "quota-policy window must be w=<positive seconds>", badWindows.get(0));
    }
    return Optional.empty();
  }
}
