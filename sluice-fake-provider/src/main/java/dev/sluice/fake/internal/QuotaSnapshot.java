package dev.sluice.fake.internal;

import java.util.Optional;

/**
 * The state of the bucket(s) that governed one request, right after the decision: what the
 * dialect writers publish.
 *
 * @param policy the policy name ({@code default} or the family's name)
 * @param limit the bucket's capacity (the burst)
 * @param remaining whole requests left
 * @param nanosUntilFull time until the bucket is full again
 * @param windowSeconds the policy's published window in whole seconds ({@code Quota#windowSeconds})
 * @param quotaPerWindow the policy's published units per window: the sustained rate, not the burst
 * @param tokens the token bucket's state, when a token quota is configured
 */
public record QuotaSnapshot(
    String policy, long limit, long remaining, long nanosUntilFull, long windowSeconds, long quotaPerWindow, Optional<Tokens> tokens) {

  /** The token bucket's state. */
  public record Tokens(long limit, long remaining, long nanosUntilFull, long windowSeconds) {}

  /** Requests used in the current window, as GitHub reports them. */
  public long used() {
    return limit - remaining;
  }
}
