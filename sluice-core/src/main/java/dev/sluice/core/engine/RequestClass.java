package dev.sluice.core.engine;

import java.time.Duration;
import java.util.Objects;
import java.util.Set;

/**
 * A request class's budget, as in the seed's {@code request_classes} block: {@code read:
 * {max_attempts: 4, max_wait_seconds: 90, retry_statuses: [408, 429, 500, 502, 503, 504]}}.
 *
 * @param name the class name ({@code read}, {@code idempotent_write}, ...)
 * @param maxAttempts attempts in all, the first send included; at least 1
 * @param maxWait the most time one action may spend waiting in Sluice (queued behind gates and
 *     delayed for retries; time in flight at the provider is not counted); not negative
 * @param retryStatuses the statuses a retry is allowed for
 */
public record RequestClass(String name, int maxAttempts, Duration maxWait, Set<Integer> retryStatuses) {
  /** The seed's {@code read} class. */
  public static final RequestClass READ = new RequestClass("read", 4, Duration.ofSeconds(90), Set.of(408, 429, 500, 502, 503, 504));
  /** The seed's {@code idempotent_write} class. */
  public static final RequestClass IDEMPOTENT_WRITE =
      new RequestClass("idempotent_write", 3, Duration.ofSeconds(120), Set.of(408, 429, 502, 503, 504));
  /** The seed's {@code uncertain_write} class. */
  public static final RequestClass UNCERTAIN_WRITE = new RequestClass("uncertain_write", 1, Duration.ZERO, Set.of());

  public RequestClass {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(maxWait, "maxWait");
    retryStatuses = Set.copyOf(Objects.requireNonNull(retryStatuses, "retryStatuses"));
    if (maxAttempts < 1) {
      throw new IllegalArgumentException("request class " + name + ": max_attempts must be at least 1, got " + maxAttempts);
    }
    if (maxWait.isNegative()) {
      throw new IllegalArgumentException("request class " + name + ": max_wait must not be negative, got " + maxWait);
    }
  }
}
