package dev.sluice.core.policy;

import java.time.Duration;
import java.util.Objects;
import java.util.OptionalInt;

/**
 * A provider's published quota ({@code rate}): {@code requests} per {@code per_seconds}. The pacing
 * bucket keeps background work below {@code requests × (1 − interactive_reserve)} so that
 * interactive work always finds room.
 *
 * @param requests more than 0
 * @param per the window, more than zero
 * @param interactiveReserve the share kept for interactive work, in [0, 1); default {@value
 *     #DEFAULT_INTERACTIVE_RESERVE}
 * @param burst optional bucket size, more than 0 and at most {@code requests}; absent: {@code
 *     requests} (the {@code Sluice} facade lets the whole quota leave back to back, as
 *     docs/CONFIGURATION.md says)
 */
public record Rate(int requests, Duration per, double interactiveReserve, OptionalInt burst) {
  /** The share of a quota kept for interactive work when {@code interactive_reserve} is absent. */
  public static final double DEFAULT_INTERACTIVE_RESERVE = 0.2;

  public Rate {
    Objects.requireNonNull(per, "per");
    Objects.requireNonNull(burst, "burst");
    if (requests <= 0) {
      throw new IllegalArgumentException("rate.requests must be more than 0, got " + requests);
    }
    if (per.isNegative() || per.isZero()) {
      throw new IllegalArgumentException("rate.per_seconds must be more than 0, got " + per);
    }
    if (!(interactiveReserve >= 0.0 && interactiveReserve < 1.0)) {
      throw new IllegalArgumentException("rate.interactive_reserve must be in [0, 1), got " + interactiveReserve);
    }
    if (burst.isPresent() && (burst.getAsInt() <= 0 || burst.getAsInt() > requests)) {
      throw new IllegalArgumentException("rate.burst must be in 1.." + requests + ", got " + burst.getAsInt());
    }
  }

  /** Requests per second, as published. */
  public double requestsPerSecond() {
    return requests / (per.toNanos() / 1e9);
  }
}
