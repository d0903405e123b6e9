package dev.sluice.bench.quota;

import java.time.Duration;
import java.util.Optional;

/**
 * The retry delay of the official OpenAI and Anthropic SDKs at their defaults (openai-python and
 * anthropic-sdk-python {@code _calculate_retry_timeout}; the Java/TypeScript SDKs use the same
 * constants): a server-given {@code retry-after} between 0 and 60 s is used as is; otherwise {@code
 * min(0.5 · 2^n, 8) · (1 − 0.25 · rand)} seconds, where {@code n} is the number of retries already
 * made (0 before the first retry). Default budget: 2 retries, so 3 attempts.
 */
final class SdkDefaultBackoff {
  static final int MAX_RETRIES = 2;
  static final double INITIAL_SECONDS = 0.5;
  static final double MAX_SECONDS = 8.0;
  /** The SDKs only trust a server-given delay up to a minute. */
  static final Duration MAX_RETRY_AFTER = Duration.ofSeconds(60);

  private SdkDefaultBackoff() {}

  /**
   * The delay before the next attempt.
   *
   * @param retriesSoFar retries already made, from 0
   * @param retryAfter the server-given delay, if any
   * @param random a number in [0, 1)
   */
  static Duration delay(int retriesSoFar, Optional<Duration> retryAfter, double random) {
    if (retriesSoFar < 0) {
      throw new IllegalArgumentException("retriesSoFar must be 0 or more, got " + retriesSoFar);
    }
    if (!(random >= 0 && random < 1)) {
      throw new IllegalArgumentException("random must be in [0, 1), got " + random);
    }
    if (retryAfter.isPresent() && !retryAfter.get().isZero() && !retryAfter.get().isNegative()
        && retryAfter.get().compareTo(MAX_RETRY_AFTER) <= 0) {
      return retryAfter.get();
    }
    double sleep = Math.min(INITIAL_SECONDS * Math.pow(2, retriesSoFar), MAX_SECONDS);
    double jittered = sleep * (1 - 0.25 * random);
    return Duration.ofNanos((long) (jittered * 1e9));
  }
}
