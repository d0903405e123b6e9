package dev.sluice.core.scope;

import dev.sluice.core.headers.RateLimitObservation;
import dev.sluice.core.headers.RateLimitReading;
import dev.sluice.core.headers.RetryAfterPolicy;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The in-process {@link ScopeRegistry}: a concurrent map, each update atomic per scope. The
 * record arithmetic is {@link ScopeUpdate}'s; this class adds atomicity and the learned quota.
 *
 * <p>The {@link RetryAfterPolicy}'s minimum delay (default 1 s) is the hold after a rate-limited
 * response that names no delay.
 */
public final class InMemoryScopeRegistry implements ScopeRegistry {
  private record State(ScopeRecord record, Optional<LearnedQuota> learned) {}

  private final ConcurrentHashMap<ScopeId, State> states = new ConcurrentHashMap<>();
  private final RetryAfterPolicy policy;

  /** A registry with {@link RetryAfterPolicy#defaults()}. */
  public InMemoryScopeRegistry() {
    this(RetryAfterPolicy.defaults());
  }

  public InMemoryScopeRegistry(RetryAfterPolicy policy) {
    this.policy = Objects.requireNonNull(policy, "policy");
  }

  @Override
  public void register(ScopeId id, String requestClass) {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(requestClass, "requestClass");
    states.computeIfAbsent(id, k -> new State(empty(k, requestClass), Optional.empty()));
  }

  @Override
  public ScopeRecord observe(ScopeId id, ResponseObservation obs) {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(obs, "observation");
    return states.compute(id, (k, old) -> next(old == null ? new State(empty(k, obs.requestClass()), Optional.empty()) : old, obs)).record();
  }

  @Override
  public Optional<ScopeRecord> record(ScopeId id) {
    State s = states.get(id);
    return s == null ? Optional.empty() : Optional.of(s.record());
  }

  @Override
  public Optional<LearnedQuota> learnedQuota(ScopeId id) {
    State s = states.get(id);
    return s == null ? Optional.empty() : s.learned();
  }

  @Override
  public List<ScopeRecord> snapshot() {
    return states.values().stream()
        .map(State::record)
        .sorted(Comparator.comparing(ScopeRecord::provider).thenComparing(ScopeRecord::scope))
        .toList();
  }

  private static ScopeRecord empty(ScopeId id, String requestClass) {
    return new ScopeRecord(id.provider(), id.scope(), requestClass, Optional.empty(), OptionalLong.empty(), OptionalLong.empty(), "no response yet");
  }

  private State next(State old, ResponseObservation obs) {
    ScopeRecord before = old.record();
    ScopeRecord after = ScopeUpdate.after(obs.classification(), obs.serverDelay(), obs.rateLimits(), obs.receivedAt(), policy)
        .map(u -> u.applyTo(before, obs.requestClass()))
        .orElseGet(() -> new ScopeRecord(before.provider(), before.scope(), obs.requestClass(), before.nextAllowedAt(), before.remaining(),
            before.resetAfterSeconds(), before.source()));
    return new State(after, learn(obs.rateLimits(), obs, old.learned()));
  }

  /**
   * The request quota to pace by: the slowest rate among readings that give limit and window
   * (kept from earlier responses when this one gives none), and the most constrained remainder.
   */
  private static Optional<LearnedQuota> learn(RateLimitReading reading, ResponseObservation obs, Optional<LearnedQuota> old) {
    Optional<RateLimitObservation> rate = reading.observations().stream()
        .filter(o -> o.unit() == RateLimitObservation.Unit.REQUESTS)
        .filter(o -> o.limit().isPresent() && o.limit().getAsLong() > 0 && o.window().isPresent() && o.window().get().toNanos() > 0)
        .min(Comparator.comparingDouble(o -> o.limit().getAsLong() / (o.window().get().toNanos() / 1e9)));
    Optional<RateLimitObservation> tight = reading.mostConstrained();
    if (rate.isEmpty() && tight.isEmpty()) {
      return old;
    }
    OptionalLong limit = rate.map(RateLimitObservation::limit).orElse(old.map(LearnedQuota::limit).orElse(OptionalLong.empty()));
    Optional<Duration> window = rate.isPresent() ? rate.get().window() : old.flatMap(LearnedQuota::window);
    String source = tight.or(() -> rate).map(RateLimitObservation::sourceHeader).orElse("");
    return Optional.of(new LearnedQuota(limit, window, tight.map(RateLimitObservation::remaining).orElse(OptionalLong.empty()),
        tight.flatMap(RateLimitObservation::resetAt), obs.receivedAt(), source));
  }
}
