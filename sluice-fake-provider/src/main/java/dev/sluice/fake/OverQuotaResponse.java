package dev.sluice.fake;

import java.util.Objects;

/**
 * What the fake answers when a token bucket is empty. Default: {@code 429} with {@link
 * #DEFAULT_BODY}, plus {@code Retry-After} (see {@link RetryAfterFormat}) and the dialect's
 * rate-limit headers showing nothing remaining.
 *
 * @param status 429 (the standard) or 403 (as GitHub does for its primary limit)
 * @param body the JSON body, e.g. a provider-specific error object
 */
public record OverQuotaResponse(int status, String body) {

  /** The default body: an OpenAI/Stripe-shaped error object with code {@code rate_limit_exceeded}. */
  public static final String DEFAULT_BODY =
      "{\"error\":{\"code\":\"rate_limit_exceeded\",\"type\":\"rate_limit_error\","
          + "\"message\":\"Rate limit exceeded. Retry after the delay given in Retry-After.\"}}";

  /** 429 with {@link #DEFAULT_BODY}. */
  public static final OverQuotaResponse DEFAULT = new OverQuotaResponse(429, DEFAULT_BODY);

  public OverQuotaResponse {
    Objects.requireNonNull(body, "body");
    if (status != 429 && status != 403) {
      throw new IllegalArgumentException("over-quota status must be 429 or 403, got " + status);
    }
  }
}
