package dev.sluice.fake;

import java.util.Objects;

/**
 * Quota exhaustion (a billing or daily cap): each scope may have {@code requests} requests granted
 * per UTC day of the fake's clock; after that every request is answered {@code 429} with {@code
 * body} (by default {@code insufficient_quota}, as OpenAI does) and a {@code Retry-After} pointing
 * at the next 00:00 UTC, until the day turns. Off unless configured. Requests refused by the token
 * bucket do not count against the day.
 *
 * @param requests granted requests per scope per UTC day, at least 1
 * @param body the JSON body of the refusal
 */
public record DailyQuota(long requests, String body) {

  /** OpenAI's shape for a spent quota. */
  public static final String DEFAULT_BODY =
      "{\"error\":{\"code\":\"insufficient_quota\",\"type\":\"insufficient_quota\","
          + "\"message\":\"You exceeded your current quota. It resets at 00:00 UTC.\"}}";

  public DailyQuota {
    Objects.requireNonNull(body, "body");
    if (requests < 1) {
      throw new IllegalArgumentException("daily quota must be at least 1 request, got " + requests);
    }
  }

  /** {@code requests} per day with {@link #DEFAULT_BODY}. */
  public static DailyQuota of(long requests) {
    return new DailyQuota(requests, DEFAULT_BODY);
  }
}
