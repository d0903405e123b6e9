package dev.sluice.core.policy;

import java.time.Duration;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * A retry budget, as data the agent cannot change (the seed's {@code request_classes} block).
 *
 * <p>{@code max_attempts} counts every real send including the first, so {@code 1} means "never
 * repeat"; {@code max_wait_seconds} caps the total time one action may spend waiting between
 * attempts; {@code retry_statuses} are the HTTP statuses after which a further attempt may be
 * considered at all (the engine still refuses to repeat a write whose outcome is unknown).
 *
 * @param name the key under {@code request_classes}, e.g. {@code read}
 * @param maxAttempts at least 1
 * @param maxWait zero or more
 * @param retryStatuses distinct statuses in 100–599, in the order configured
 */
public record RequestClass(String name, int maxAttempts, Duration maxWait, List<Integer> retryStatuses) {
  /** The class of unmatched GET and HEAD requests. */
  public static final String READ = "read";
  /** The seed's class for writes protected by an idempotency key. */
  public static final String IDEMPOTENT_WRITE = "idempotent_write";
  /** The class of every unmatched request that is not GET or HEAD. */
  public static final String UNCERTAIN_WRITE = "uncertain_write";

  /** Names of request classes: what may appear as a key under {@code request_classes}. */
  public static final Pattern NAME = Pattern.compile("[A-Za-z0-9_][A-Za-z0-9_.:-]{0,63}");


  public RequestClass {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(maxWait, "maxWait");
    Objects.requireNonNull(retryStatuses, "retryStatuses");
    if (!NAME.matcher(name).matches()) {
      throw new IllegalArgumentException("request class name '" + name + "' must match " + NAME.pattern());
    }
    if (maxAttempts < 1) {
      throw new IllegalArgumentException("max_attempts of '" + name + "' must be at least 1 (1 = never repeat), got " + maxAttempts);
    }
    if (maxWait.isNegative()) {
      throw new IllegalArgumentException("max_wait_seconds of '" + name + "' must be zero or more, got " + maxWait);
    }
    Set<Integer> seen = new HashSet<>();
    for (Integer s : retryStatuses) {
      if (s == null || s < 100 || s > 599) {
        throw new IllegalArgumentException("retry_statuses of '" + name + "' must be HTTP statuses 100-599, got " + s);
      }
      if (!seen.add(s)) {
        throw new IllegalArgumentException("retry_statuses of '" + name + "' lists " + s + " twice");
      }
    }
    retryStatuses = List.copyOf(retryStatuses);
  }

  /** Whether a response with this status leaves the action eligible for another attempt. */
  public boolean retriesOn(int status) {
    return retryStatuses.contains(status);
  }

  /** Whether the class allows more than one attempt at all. */
  public boolean allowsRetry() {
    return maxAttempts > 1;
  }

  /**
   * The seed's three classes, used when {@code request_classes} is absent: {@code read} (4
   * attempts, 90 s, [408, 429, 500, 502, 503, 504]), {@code idempotent_write} (3, 120 s, [408,
   * 429, 502, 503, 504]) and {@code uncertain_write} (1, 0 s, []). Ordered as in the seed.
   */
  public static Map<String, RequestClass> seedDefaults() {
    return SEED;
  }

  /** The seed's {@code read}: 4 attempts, 90 s, [408, 429, 500, 502, 503, 504]. */
  public static final RequestClass SEED_READ = new RequestClass(READ, 4, Duration.ofSeconds(90), List.of(408, 429, 500, 502, 503, 504));
  /** The seed's {@code idempotent_write}: 3 attempts, 120 s, [408, 429, 502, 503, 504]. */
  public static final RequestClass SEED_IDEMPOTENT_WRITE =
      new RequestClass(IDEMPOTENT_WRITE, 3, Duration.ofSeconds(120), List.of(408, 429, 502, 503, 504));
  /** The seed's {@code uncertain_write}: 1 attempt, 0 s, no retry statuses. */
  public static final RequestClass SEED_UNCERTAIN_WRITE = new RequestClass(UNCERTAIN_WRITE, 1, Duration.ZERO, List.of());

  // After the SEED_* constants: static initialisers run in textual order.
  private static final Map<String, RequestClass> SEED = seed();

  private static Map<String, RequestClass> seed() {
    List<RequestClass> classes = List.of(SEED_READ, SEED_IDEMPOTENT_WRITE, SEED_UNCERTAIN_WRITE);
    Map<String, RequestClass> m = new LinkedHashMap<>();
    classes.forEach(c -> m.put(c.name(), c));
    return Collections.unmodifiableMap(m);
  }
}
