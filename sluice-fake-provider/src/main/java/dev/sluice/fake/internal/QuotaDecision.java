package dev.sluice.fake.internal;

import java.time.Instant;

/** What the quota keeper decided for one request. */
public sealed interface QuotaDecision {

  /** Allowed; the snapshot is published in the dialect's headers. */
  record Granted(QuotaSnapshot snapshot) implements QuotaDecision {}

  /** A bucket is empty: {@code nanosUntilRetry} until the request would be allowed. */
  record Denied(QuotaSnapshot snapshot, long nanosUntilRetry) implements QuotaDecision {}

  /** The daily quota of the scope is spent until {@code resetAt}. */
  record Exhausted(Instant resetAt) implements QuotaDecision {}
}
