package dev.sluice.core.headers;

import dev.sluice.core.headers.internal.DialectFields;
import dev.sluice.core.headers.internal.HeaderNumbers;
import dev.sluice.core.headers.internal.InstantMath;
import dev.sluice.core.headers.internal.ValueParse;
import dev.sluice.core.http.Headers;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.regex.Pattern;

/**
 * Reads GitHub's rate-limit fields:
 *
 * <pre>
 * x-ratelimit-limit: 5000
 * x-ratelimit-remaining: 4987
 * x-ratelimit-used: 13
 * x-ratelimit-reset: 1792567680      (epoch seconds)
 * x-ratelimit-resource: core
 * </pre>
 *
 * <p>One {@link RateLimitObservation.Unit#REQUESTS} observation whose partition is the resource
 * ({@code core}, {@code search}, {@code graphql}, ...; empty when not sent). When {@code
 * remaining} is missing it is derived as {@code limit - used}; when both are sent and disagree,
 * the smaller remainder is kept and {@link HeaderFlag#CONFLICTING_HEADERS} is noted. No window is
 * sent. Detection looks at these exact names only, so OpenAI's {@code x-ratelimit-limit-requests}
 * never reads as GitHub. Under auto-detection any API sending bare {@code x-ratelimit-*} fields is
 * read as this dialect: right for those whose reset is epoch seconds (most), wrong for the few
 * whose reset is a number of seconds from now (that reset reads as a 1970 instant, i.e. already
 * passed). Malformed values are ignored and noted, never thrown.
 */
public final class GitHubRateLimitReader implements RateLimitDialectReader {
  public static final String LIMIT = "x-ratelimit-limit";
  public static final String REMAINING = "x-ratelimit-remaining";
  public static final String USED = "x-ratelimit-used";
  public static final String RESET = "x-ratelimit-reset";
  public static final String RESOURCE = "x-ratelimit-resource";

  /** GitHub's resource names are short snake_case words; anything else is not a partition name. */
  private static final Pattern RESOURCE_NAME = Pattern.compile("[A-Za-z0-9_.-]{1,64}");

  @Override
  public RateLimitDialect dialect() {
    return RateLimitDialect.GITHUB;
  }

  @Override
  public boolean present(Headers headers) {
    return headers.contains(LIMIT) || headers.contains(REMAINING) || headers.contains(USED)
        || headers.contains(RESET) || headers.contains(RESOURCE);
  }

  @Override
  public List<RateLimitObservation> read(Headers headers, Instant now, List<HeaderNote> notes) {
    DialectFields.Sources sources = new DialectFields.Sources();
    OptionalLong limit = DialectFields.count(headers, LIMIT, notes);
    sources.used(LIMIT, limit.isPresent());
    OptionalLong sent = DialectFields.count(headers, REMAINING, notes);
    OptionalLong used = DialectFields.count(headers, USED, notes);
    OptionalLong remaining = remaining(limit, sent, used, notes);
    sources.used(REMAINING, sent.isPresent());
    sources.used(USED, used.isPresent() && limit.isPresent());
    Optional<Instant> resetAt = DialectFields.value(headers, RESET, notes, text -> switch (HeaderNumbers.nonNegativeInteger(text)) {
      case ValueParse.Ok<Long> ok -> InstantMath.ofEpochSecond(ok.value());
      case ValueParse.Refused<Long> r -> ValueParse.refused(r.why() + "; expected epoch seconds");
    });
    sources.used(RESET, resetAt.isPresent());
    if (sources.isEmpty()) {
      return List.of();
    }
    Optional<String> resource = DialectFields.value(headers, RESOURCE, notes, text -> RESOURCE_NAME.matcher(text).matches()
        ? ValueParse.ok(text)
        : ValueParse.refused("expected a resource name such as core or search"));
    sources.used(RESOURCE, resource.isPresent());
    return List.of(new RateLimitObservation(
        RateLimitDialect.GITHUB, RateLimitObservation.Unit.REQUESTS, resource,
        limit, remaining, Optional.empty(), resetAt, sources.toString()));
  }

  private static OptionalLong remaining(OptionalLong limit, OptionalLong sent, OptionalLong used, List<HeaderNote> notes) {
    if (limit.isEmpty() || used.isEmpty()) {
      return sent;
    }
    long derived = Math.max(0, limit.getAsLong() - used.getAsLong());
    if (sent.isEmpty()) {
      return OptionalLong.of(derived);
    }
    if (sent.getAsLong() != derived) {
      long kept = Math.min(sent.getAsLong(), derived);
      notes.add(new HeaderNote(HeaderFlag.CONFLICTING_HEADERS, REMAINING,
          "remaining " + sent.getAsLong() + " disagrees with limit - used = " + derived + "; keeping " + kept));
      return OptionalLong.of(kept);
    }
    return sent;
  }
}
