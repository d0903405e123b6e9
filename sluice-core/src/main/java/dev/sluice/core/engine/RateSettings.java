package dev.sluice.core.engine;

import java.time.Duration;
import java.util.Objects;
import java.util.OptionalInt;

/**
 * A scope's published quota for pacing: {@code rate: {requests: 100, per_seconds: 60,
 * interactive_reserve: 0.2, burst: 1}}.
 *
 * <p>The pacer keeps two rules at once: (1) at most {@code requests} sends in every window of
 * length {@code per} (a sliding log of send instants, so no window anywhere exceeds it), of which
 * background work may use only {@code floor(requests × (1 − interactive_reserve))} (at least 1);
 * (2) sends are spaced at {@code per / requests} on average, with up to {@code burst} back to back
 * (a GCRA token bucket). Default burst 1: evenly spaced sends, the smoothest load the quota
 * allows.
 *
 * @param requests requests allowed per window, at least 1
 * @param per the window, positive
 * @param interactiveReserve the share kept for interactive work, in {@code [0, 1)}; default 0
 * @param burst how many sends may leave back to back; default 1
 */
public record RateSettings(int requests, Duration per, double interactiveReserve, OptionalInt burst) {
  public RateSettings {
    Objects.requireNonNull(per, "per");
    Objects.requireNonNull(burst, "burst");
    if (requests < 1) {
      throw new IllegalArgumentException("rate.requests must be at least 1, got " + requests);
    }
    if (per.isNegative() || per.isZero()) {
      throw new IllegalArgumentException("rate.per_seconds must be positive, got " + per);
    }
    if (!(interactiveReserve >= 0 && interactiveReserve < 1)) {
      throw new IllegalArgumentException("rate.interactive_reserve must be in [0, 1), got " + interactiveReserve);
    }
    if (burst.isPresent() && (burst.getAsInt() < 1 || burst.getAsInt() > requests)) {
      throw new IllegalArgumentException("rate.burst must be in [1, requests=" + requests + "], got " + burst.getAsInt());
    }
  }

  /** {@code requests} per {@code per}, no reserve, burst 1. */
  public static RateSettings of(int requests, Duration per) {
    return new RateSettings(requests, per, 0, OptionalInt.empty());
  }

  /** The sends per window background work may use. */
  public int backgroundLimit() {
    return Math.max(1, (int) Math.floor(requests * (1 - interactiveReserve)));
  }
}
