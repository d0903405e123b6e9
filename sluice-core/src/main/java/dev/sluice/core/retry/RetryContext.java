package dev.sluice.core.retry;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * Everything the {@link RetryPlanner} needs to know about one logical action after an attempt.
 *
 * @param requestClass the request class name (for messages)
 * @param maxAttempts the class's {@code max_attempts}: attempts in all, the first send included
 * @param maxWait the class's {@code max_wait_seconds}: total time the action may spend waiting
 * @param retryStatuses the class's {@code retry_statuses}
 * @param write whether the action may change state at the provider (any method but GET, HEAD,
 *     OPTIONS, TRACE)
 * @param idempotencyKeySent whether the attempt carried an idempotency key the provider honours,
 *     so that a resend cannot create a second effect
 * @param lookupAvailable whether the route can be looked up (reconciled) after an uncertain send
 * @param attempt the number of the attempt whose result this is (1 = the first send)
 * @param waited the time this action has already spent waiting before this decision
 * @param deadline the task's deadline, when it has one
 * @param now the instant of the decision
 */
public record RetryContext(
    String requestClass,
    int maxAttempts,
    Duration maxWait,
    Set<Integer> retryStatuses,
    boolean write,
    boolean idempotencyKeySent,
    boolean lookupAvailable,
    int attempt,
    Duration waited,
    Optional<Instant> deadline,
    Instant now) {

  public RetryContext {
    Objects.requireNonNull(requestClass, "requestClass");
    Objects.requireNonNull(maxWait, "maxWait");
    retryStatuses = Set.copyOf(Objects.requireNonNull(retryStatuses, "retryStatuses"));
    Objects.requireNonNull(waited, "waited");
    Objects.requireNonNull(deadline, "deadline");
    Objects.requireNonNull(now, "now");
    if (maxAttempts < 1) {
      throw new IllegalArgumentException("max_attempts must be at least 1, got " + maxAttempts);
    }
    if (maxWait.isNegative()) {
      throw new IllegalArgumentException("max_wait must not be negative, got " + maxWait);
    }
    if (attempt < 1) {
      throw new IllegalArgumentException("attempt numbers start at 1 (the first send), got " + attempt);
    }
    if (waited.isNegative()) {
      throw new IllegalArgumentException("waited must not be negative, got " + waited);
    }
  }
}
