package dev.sluice.core.retry;

import java.util.Locale;

/** Where a retry delay came from; shown to operators and in {@code sluice explain --json}. */
public enum DelaySource {
  /** The {@code Retry-After} header (seconds or HTTP-date). */
  RETRY_AFTER("retry-after"),
  /** OpenAI's {@code retry-after-ms} header. */
  RETRY_AFTER_MS("retry-after-ms"),
  /** A rate-limit reset from {@code RateLimit} or a provider dialect, with nothing remaining. */
  RATELIMIT("ratelimit"),
  /** Sluice's own capped exponential backoff with full jitter. */
  BACKOFF("backoff");

  private final String code;

  DelaySource(String code) {
    this.code = code;
  }

  public String code() {
    return code;
  }

  @Override
  public String toString() {
    return code.toLowerCase(Locale.ROOT);
  }
}
