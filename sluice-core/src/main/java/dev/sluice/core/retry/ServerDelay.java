package dev.sluice.core.retry;

import dev.sluice.core.classify.Verdict;
import dev.sluice.core.headers.HeaderFlag;
import dev.sluice.core.headers.HeaderNote;
import dev.sluice.core.headers.RateLimitObservation;
import dev.sluice.core.headers.RateLimitReading;
import dev.sluice.core.headers.RetryAfterPolicy;
import dev.sluice.core.headers.ServerDelayReading;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A delay the provider asked for, already bounded (past dates raised to the minimum delay,
 * absurd values capped) by the header readers.
 *
 * @param delay how long the provider asked to wait, not negative
 * @param source which header said so
 * @param header the header field name as received, for operators
 */
public record ServerDelay(Duration delay, DelaySource source, String header) {
  public ServerDelay {
    Objects.requireNonNull(delay, "delay");
    Objects.requireNonNull(source, "source");
    Objects.requireNonNull(header, "header");
    if (delay.isNegative()) {
      throw new IllegalArgumentException("a server delay cannot be negative: " + delay);
    }
    if (source == DelaySource.BACKOFF) {
      throw new IllegalArgumentException("backoff is Sluice's own delay, not a server's");
    }
  }

  /**
   * The delay a response imposes on the next attempt: {@code Retry-After} or {@code
   * retry-after-ms} when present (already bounded by their reader); else, for a rate-limited
   * response only, the reset of a rate-limit pool with nothing remaining, bounded by the same
   * policy (a reset already past gives the minimum delay and a {@code clock_skew} note; one beyond
   * the cap is capped and noted).
   *
   * @param notes receives the notes raised while bounding a rate-limit reset
   */
  public static Optional<ServerDelay> from(ServerDelayReading retryAfter, RateLimitReading rateLimits, Verdict verdict,
      Instant now, RetryAfterPolicy policy, List<HeaderNote> notes) {
    if (retryAfter.isPresent()) {
      DelaySource source = retryAfter.source().orElseThrow() == ServerDelayReading.Source.RETRY_AFTER_MS
          ? DelaySource.RETRY_AFTER_MS : DelaySource.RETRY_AFTER;
      String header = source == DelaySource.RETRY_AFTER ? "Retry-After" : "retry-after-ms";
      return Optional.of(new ServerDelay(retryAfter.delay().orElseThrow(), source, header));
    }
    if (verdict != Verdict.RATE_LIMITED) {
      return Optional.empty();
    }
    Optional<RateLimitObservation> exhausted = rateLimits.observations().stream()
        .filter(o -> o.remaining().isPresent() && o.remaining().getAsLong() == 0 && o.resetAt().isPresent())
        .max(java.util.Comparator.comparing(o -> o.resetAt().orElseThrow()));
    if (exhausted.isEmpty()) {
      return Optional.empty();
    }
    RateLimitObservation o = exhausted.get();
    Instant reset = o.resetAt().orElseThrow();
    Duration delay = reset.isAfter(now) ? Duration.between(now, reset) : Duration.ZERO;
    if (!reset.isAfter(now)) {
      notes.add(new HeaderNote(HeaderFlag.CLOCK_SKEW, o.sourceHeader(),
          "the rate-limit reset is not in the future; waiting the minimum delay of " + policy.minimumDelay().toSeconds() + " s"));
    }
    if (delay.compareTo(policy.minimumDelay()) < 0) {
      delay = policy.minimumDelay();
    }
    if (delay.compareTo(policy.cap()) > 0) {
      notes.add(new HeaderNote(HeaderFlag.CAPPED, o.sourceHeader(),
          "rate-limit reset in " + delay.toSeconds() + " s is beyond the cap; capped to " + policy.cap().toSeconds() + " s"));
      delay = policy.cap();
    }
    return Optional.of(new ServerDelay(delay, DelaySource.RATELIMIT, o.sourceHeader()));
  }
}
