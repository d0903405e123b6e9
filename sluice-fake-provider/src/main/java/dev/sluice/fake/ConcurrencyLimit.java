package dev.sluice.fake;

import java.util.Objects;

/**
 * A GitHub-style secondary rate limit: at most {@code limit} requests of one scope in flight at
 * once. A request arriving while the scope already has {@code limit} in flight is answered {@code
 * status} (403 as GitHub does, or 429) with {@code Retry-After: retryAfterSeconds} and {@code body}.
 * Off unless configured.
 *
 * @param limit requests in flight per scope, at least 1
 * @param status 403 or 429
 * @param retryAfterSeconds the delay advertised, at least 1 (GitHub asks for one minute)
 * @param body the JSON body of the refusal
 */
public record ConcurrencyLimit(int limit, int status, long retryAfterSeconds, String body) {

  /** GitHub's wording for its secondary rate limit. */
  public static final String DEFAULT_BODY =
      "{\"message\":\"You have exceeded a secondary rate limit. Please wait a few minutes before you try again.\","
          + "\"documentation_url\":\"https://docs.github.com/rest/overview/rate-limits-for-the-rest-api\"}";

  public ConcurrencyLimit {
    Objects.requireNonNull(body, "body");
    if (limit < 1) {
      throw new IllegalArgumentException("concurrency limit must be at least 1, got " + limit);
    }
    if (status != 403 && status != 429) {
      throw new IllegalArgumentException("concurrency refusal status must be 403 or 429, got " + status);
    }
    if (retryAfterSeconds < 1) {
      throw new IllegalArgumentException("concurrency retry-after must be at least 1 second, got " + retryAfterSeconds);
    }
  }

  /** {@code limit} in flight per scope, refused with 403, {@code Retry-After: 60} and GitHub's body. */
  public static ConcurrencyLimit of(int limit) {
    return new ConcurrencyLimit(limit, 403, 60, DEFAULT_BODY);
  }

  /** The same limit refused with another status (403 or 429). */
  public ConcurrencyLimit withStatus(int newStatus) {
    return new ConcurrencyLimit(limit, newStatus, retryAfterSeconds, body);
  }
}
