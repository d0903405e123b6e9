package dev.sluice.core.retry;

import java.time.Duration;
import java.util.Objects;

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
}
