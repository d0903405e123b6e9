package dev.sluice.core.scope;

import dev.sluice.core.classify.Classification;
import dev.sluice.core.classify.Verdict;
import dev.sluice.core.headers.RateLimitObservation;
import dev.sluice.core.retry.ServerDelay;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The in-process {@link ScopeRegistry}: a concurrent map, each update atomic per scope.
 *
 * <p>The minimum hold (default 1 s) is used after a rate-limited response that names no delay and
 * no reset, and as a floor under a server delay of zero, so a 429 never turns into a hot loop.
 */
public final class InMemoryScopeRegistry implements ScopeRegistry {
  /** The default floor under a 429's hold. */
  public static final Duration DEFAULT_MINIMUM_HOLD = Duration.ofSeconds(1);

  private record State(ScopeRecord record, Optional<LearnedQuota> learned) {}

  private final ConcurrentHashMap<ScopeId, State> states = new ConcurrentHashMap<>();
  private final Duration minimumHold;

  /** A registry with the default minimum hold of 1 s. */
  public InMemoryScopeRegistry() {
    this(DEFAULT_MINIMUM_HOLD);
  }

  /** A registry whose 429 holds last at least {@code minimumHold} (positive). */
  public InMemoryScopeRegistry(Duration minimumHold) {
    Objects.requireNonNull(minimumHold, "minimumHold");
    if (minimumHold.isNegative() || minimumHold.isZero()) {
      throw new IllegalArgumentException("the minimum hold after a 429 must be positive, got " + minimumHold);
    }
    this.minimumHold = minimumHold;
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
    return states.compute(id, (k, old) -> next(k, old == null ? new State(empty(k, obs.requestClass()), Optional.empty()) : old, obs)).record();
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
    return new ScopeRecord(id.provider(), id.scope(), requestClass, Optional.empty(), OptionalLong.empty(), OptionalLong.empty(), "none yet");
  }

  private State next(ScopeId id, State old, ResponseObservation obs) {
    Instant now = obs.receivedAt();
    ScopeRecord r = old.record();
    List<RateLimitObservation> requests = obs.rateLimits().stream().filter(o -> o.unit() == RateLimitObservation.Unit.REQUESTS).toList();
    Optional<LearnedQuota> learned = learn(requests, now)
        .map(n -> n.hasRate() || old.learned().isEmpty() ? n
            : new LearnedQuota(old.learned().get().limit(), old.learned().get().window(), n.remaining(), n.resetAt(), n.observedAt(), n.source()))
        .or(old::learned);
    Classification c = obs.classification();
    String status = c.status().isPresent() ? "HTTP " + c.status().getAsInt() : "HTTP";

    if (c.verdict() == Verdict.RATE_LIMITED) {
      Duration hold;
      String why;
      Optional<RateLimitObservation> reset = tightest(requests, now).filter(o -> o.resetAt().isPresent() && o.resetAt().get().isAfter(now));
      if (obs.serverDelay().isPresent()) {
        ServerDelay d = obs.serverDelay().get();
        hold = d.delay();
        why = status + " " + headerLabel(d);
      } else if (reset.isPresent()) {
        hold = reset.get().resetAfter(now).orElseThrow();
        why = status + " " + reset.get().sourceHeader() + " reset";
      } else {
        hold = minimumHold;
        why = status + " minimum delay";
      }
      if (hold.compareTo(minimumHold) < 0) {
        hold = minimumHold;
      }
      Instant candidate = now.plus(hold);
      Instant nextAllowed = r.nextAllowedAt().filter(at -> at.isAfter(candidate)).orElse(candidate);
      String source = nextAllowed.equals(candidate) ? why : r.source();
      ScopeRecord rec = new ScopeRecord(id.provider(), id.scope(), obs.requestClass(), Optional.of(nextAllowed), OptionalLong.of(0),
          OptionalLong.of(ceilSeconds(Duration.between(now, nextAllowed))), source);
      return new State(rec, learned);
    }

    boolean holdInForce = r.nextAllowedAt().isPresent() && r.nextAllowedAt().get().isAfter(now);
    Optional<RateLimitObservation> tight = tightest(requests, now);
    if (holdInForce || tight.isEmpty()) {
      // A response to a request that left before the 429 must not clear the hold.
      return new State(holdInForce ? r : withClass(r, obs.requestClass()), learned);
    }
    RateLimitObservation o = tight.get();
    Optional<Instant> nextAllowed = r.nextAllowedAt();
    String source = o.sourceHeader();
    if (o.remaining().isPresent() && o.remaining().getAsLong() == 0 && o.resetAt().isPresent() && o.resetAt().get().isAfter(now)) {
      Instant reset = o.resetAt().get();
      if (nextAllowed.isEmpty() || reset.isAfter(nextAllowed.get())) {
        nextAllowed = Optional.of(reset);
      }
      source = o.sourceHeader() + " remaining 0";
    }
    OptionalLong resetAfter = o.resetAt().isPresent() ? OptionalLong.of(ceilSeconds(o.resetAfter(now).orElseThrow())) : OptionalLong.empty();
    ScopeRecord rec = new ScopeRecord(id.provider(), id.scope(), obs.requestClass(), nextAllowed, o.remaining(), resetAfter, source);
    return new State(rec, learned);
  }

  private static ScopeRecord withClass(ScopeRecord r, String requestClass) {
    return new ScopeRecord(r.provider(), r.scope(), requestClass, r.nextAllowedAt(), r.remaining(), r.resetAfterSeconds(), r.source());
  }

  /** The most constraining request reading: the fewest remaining, else the first. */
  private static Optional<RateLimitObservation> tightest(List<RateLimitObservation> requests, Instant now) {
    return requests.stream()
        .min(Comparator.comparingLong((RateLimitObservation o) -> o.remaining().orElse(Long.MAX_VALUE))
            .thenComparing(o -> o.resetAt().orElse(Instant.MAX)));
  }

  /** The slowest rate among readings that give both limit and window, with the tightest remaining. */
  private static Optional<LearnedQuota> learn(List<RateLimitObservation> requests, Instant now) {
    if (requests.isEmpty()) {
      return Optional.empty();
    }
    Optional<RateLimitObservation> rate = requests.stream()
        .filter(o -> o.limit().isPresent() && o.limit().getAsLong() > 0 && o.window().isPresent() && o.window().get().toNanos() > 0)
        .min(Comparator.comparingDouble(o -> o.limit().getAsLong() / (o.window().get().toNanos() / 1e9)));
    RateLimitObservation tight = tightest(requests, now).orElseThrow();
    OptionalLong limit = rate.map(RateLimitObservation::limit).orElse(OptionalLong.empty());
    Optional<Duration> window = rate.flatMap(RateLimitObservation::window);
    return Optional.of(new LearnedQuota(limit, window, tight.remaining(), tight.resetAt(), now, tight.sourceHeader()));
  }

  private static String headerLabel(ServerDelay d) {
    return switch (d.source()) {
      case RETRY_AFTER -> "Retry-After";
      case RETRY_AFTER_MS -> "retry-after-ms";
      default -> d.header();
    };
  }

  private static long ceilSeconds(Duration d) {
    long s = d.getSeconds();
    return d.getNano() > 0 ? s + 1 : s;
  }
}
