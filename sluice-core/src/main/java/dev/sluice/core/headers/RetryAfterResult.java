package dev.sluice.core.headers;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What one {@code Retry-After} (or {@code retry-after-ms}) field value means, once bounded by a
 * {@link RetryAfterPolicy}.
 *
 * <p>Either the value was understood, and {@code delay}, {@code form} and {@code retryAt} are all
 * present with {@code delay} in {@code [minimumDelay, cap]} and {@code retryAt = now + delay}; or
 * it was not, and all three are empty and {@code notes} holds a {@link
 * HeaderFlag#MALFORMED_HEADER_IGNORED} note saying why. Notes {@link HeaderFlag#CAPPED} and {@link
 * HeaderFlag#CLOCK_SKEW} tell when an understood value was adjusted.
 *
 * @param delay how long to wait from {@code now}, after the policy's bounds
 * @param form the form the value was written in
 * @param retryAt {@code now + delay}: the earliest instant to send again (saturates at {@link
 *     Instant#MAX} rather than overflowing)
 * @param notes what was flagged while reading, possibly none
 */
public record RetryAfterResult(
    Optional<Duration> delay, Optional<RetryAfterForm> form, Optional<Instant> retryAt, List<HeaderNote> notes) {

  public RetryAfterResult {
    Objects.requireNonNull(delay, "delay");
    Objects.requireNonNull(form, "form");
    Objects.requireNonNull(retryAt, "retryAt");
    notes = List.copyOf(notes);
    if (delay.isPresent() != form.isPresent() || delay.isPresent() != retryAt.isPresent()) {
      throw new IllegalArgumentException("delay, form and retryAt are present together or not at all");
    }
  }

  /** True when the value was understood and a delay is given. */
  public boolean isPresent() {
    return delay.isPresent();
  }
}
