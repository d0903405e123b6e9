package dev.sluice.core.engine;

import java.time.Duration;
import java.util.Objects;
import java.util.Set;

/**
 * When the circuit breaker stops a path (DESIGN.md §3 rule 9): after {@code threshold} failures
 * with the same fingerprint within {@code window}, per task. Defaults: 3 in 10 minutes.
 *
 * @param threshold identical failures that open the circuit, at least 1
 * @param window how far back failures count, positive
 * @param volatileFields JSON member names (at any depth) left out of the payload's fingerprint
 *     because they change on every call: timestamps, nonces, request ids
 */
public record CircuitSettings(int threshold, Duration window, Set<String> volatileFields) {
  /** 3 failures in 10 minutes; volatile fields {@code timestamp, request_id, nonce, idempotency_key}. */
  public static final CircuitSettings DEFAULT =
      new CircuitSettings(3, Duration.ofMinutes(10), Set.of("timestamp", "request_id", "nonce", "idempotency_key"));

  public CircuitSettings {
    Objects.requireNonNull(window, "window");
    volatileFields = Set.copyOf(Objects.requireNonNull(volatileFields, "volatileFields"));
    if (threshold < 1) {
      throw new IllegalArgumentException("circuit threshold must be at least 1, got " + threshold);
    }
    if (window.isNegative() || window.isZero()) {
      throw new IllegalArgumentException("circuit window must be positive, got " + window);
    }
  }
}
