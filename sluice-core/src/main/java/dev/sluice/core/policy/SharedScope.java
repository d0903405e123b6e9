package dev.sluice.core.policy;

/**
 * Limits on one shared scope (the seed's {@code shared_scope} block): how many requests may wait
 * delayed in its queue, and how many may be in flight at once, even before any rate-limit header
 * was seen.
 *
 * @param maxDelayedRequests zero or more; when the queue holds this many delayed requests a new
 *     delayed request is refused at once (backpressure). Default 25.
 * @param maxConcurrentRequests at least 1. Default 2.
 */
public record SharedScope(int maxDelayedRequests, int maxConcurrentRequests) {
  /** The seed's values: 25 delayed, 2 concurrent. */
  public static final SharedScope SEED_DEFAULT = new SharedScope(25, 2);

  public SharedScope {
    if (maxDelayedRequests < 0) {
      throw new IllegalArgumentException("max_delayed_requests must be zero or more, got " + maxDelayedRequests);
    }
    if (maxConcurrentRequests < 1) {
      throw new IllegalArgumentException("max_concurrent_requests must be at least 1, got " + maxConcurrentRequests);
    }
  }
}
