package dev.sluice.fake.internal;

import dev.sluice.fake.DailyQuota;
import dev.sluice.fake.Quota;
import dev.sluice.fake.RouteFamily;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The quota state of every scope: a request bucket per (scope, policy), an optional token bucket,
 * an optional daily counter and the count of requests in flight. Buckets are created full on a
 * scope's first request. Thread-safe: one lock per scope.
 */
public final class ScopeQuotas {

  private static final long NANOS_PER_SECOND = 1_000_000_000L;
  private static final long SECONDS_PER_DAY = 86_400L;

  private final Quota defaultQuota;
  private final Optional<Quota> tokenQuota;
  private final Optional<DailyQuota> daily;
  private final int concurrencyLimit;
  private final Map<String, State> scopes = new ConcurrentHashMap<>();

  /**
   * @param concurrencyLimit requests in flight per scope; 0 for no limit
   */
  public ScopeQuotas(Quota defaultQuota, Optional<Quota> tokenQuota, Optional<DailyQuota> daily, int concurrencyLimit) {
    this.defaultQuota = defaultQuota;
    this.tokenQuota = tokenQuota;
    this.daily = daily;
    this.concurrencyLimit = concurrencyLimit;
  }

  private static final class State {
    final ReentrantLock lock = new ReentrantLock();
    final Map<String, TokenBucket> buckets = new HashMap<>();
    TokenBucket tokens;
    long day = Long.MIN_VALUE;
    long grantedToday;
    int inFlight;
  }

  private State state(String scope) {
    return scopes.computeIfAbsent(scope, s -> new State());
  }

  /** Takes a concurrency slot for the scope; false when the scope is at its limit. Always true without a limit. */
  public boolean tryEnter(String scope) {
    if (concurrencyLimit <= 0) {
      return true;
    }
    State st = state(scope);
    st.lock.lock();
    try {
      if (st.inFlight >= concurrencyLimit) {
        return false;
      }
      st.inFlight++;
      return true;
    } finally {
      st.lock.unlock();
    }
  }

  /** Gives back a slot taken by {@link #tryEnter}. */
  public void leave(String scope) {
    if (concurrencyLimit <= 0) {
      return;
    }
    State st = state(scope);
    st.lock.lock();
    try {
      st.inFlight = Math.max(0, st.inFlight - 1);
    } finally {
      st.lock.unlock();
    }
  }

  /**
   * Decides one request of {@code family} in {@code scope} at {@code now}, costing one request and
   * {@code tokenCost} tokens (ignored without a token quota). A refused request takes nothing.
   */
  public QuotaDecision take(String scope, RouteFamily family, long tokenCost, Instant now) {
    long nowNanos = toNanos(now);
    Quota quota = family.quota().orElse(defaultQuota);
    String policy = family.policyName();
    State st = state(scope);
    st.lock.lock();
    try {
      long day = Math.floorDiv(now.getEpochSecond(), SECONDS_PER_DAY);
      if (daily.isPresent()) {
        if (st.day != day) {
          st.day = day;
          st.grantedToday = 0;
        }
        if (st.grantedToday >= daily.get().requests()) {
          return new QuotaDecision.Exhausted(Instant.ofEpochSecond((day + 1) * SECONDS_PER_DAY));
        }
      }
      TokenBucket requests = st.buckets.computeIfAbsent(policy, p -> new TokenBucket(quota, nowNanos));
      if (tokenQuota.isPresent() && st.tokens == null) {
        st.tokens = new TokenBucket(tokenQuota.get(), nowNanos);
      }
      boolean requestOk = requests.has(1, nowNanos);
      boolean tokensOk = st.tokens == null || st.tokens.has(tokenCost, nowNanos);
      if (requestOk && tokensOk) {
        requests.take(1);
        if (st.tokens != null) {
          st.tokens.take(tokenCost);
        }
        if (daily.isPresent()) {
          st.grantedToday++;
        }
        return new QuotaDecision.Granted(snapshot(policy, quota, requests, st.tokens));
      }
      long wait = Math.max(
          requests.nanosUntilAvailable(1), st.tokens == null ? 0 : st.tokens.nanosUntilAvailable(tokenCost));
      return new QuotaDecision.Denied(snapshot(policy, quota, requests, st.tokens), wait);
    } finally {
      st.lock.unlock();
    }
  }

  private QuotaSnapshot snapshot(String policy, Quota quota, TokenBucket requests, TokenBucket tokens) {
    Optional<QuotaSnapshot.Tokens> t = tokens == null
        ? Optional.empty()
        : Optional.of(new QuotaSnapshot.Tokens(
            tokens.burst(), tokens.remaining(), tokens.nanosUntilFull(), tokenQuota.orElseThrow().windowSeconds()));
    return new QuotaSnapshot(
        policy, requests.burst(), requests.remaining(), requests.nanosUntilFull(), quota.windowSeconds(), quota.quotaPerWindow(), t);
  }

  /** Forgets every scope (buckets start full again). */
  public void clear() {
    scopes.clear();
  }

  static long toNanos(Instant now) {
    return Math.addExact(Math.multiplyExact(now.getEpochSecond(), NANOS_PER_SECOND), now.getNano());
  }
}
