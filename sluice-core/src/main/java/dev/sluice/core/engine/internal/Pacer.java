package dev.sluice.core.engine.internal;

import dev.sluice.core.engine.Priority;
import dev.sluice.core.engine.RateSettings;
import dev.sluice.core.scope.LearnedQuota;
import dev.sluice.core.scope.ScopeUpdate;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * One scope's pacing bucket. Not thread-safe: the engine calls it under its lock.
 *
 * <p>Three rules, all must pass (see {@link RateSettings}): a sliding log of send instants keeps
 * every window of length {@code per} at or below the limit (background work at or below its
 * share); a GCRA bucket spaces sends at {@code per / requests} with up to {@code burst} back to
 * back; and, with a quota learned from headers, an estimate of the provider's remaining count
 * (observed remainder minus what Sluice sent since) holds sends until the reset once it reaches 0.
 * The configured rate wins over a learned one.
 *
 * <p>A reset at most {@link #HEADER_RESOLUTION} away says less than it seems when a rate is known:
 * headers give it in whole seconds, and a token bucket's reset is the instant it is <em>full</em>
 * again, while its next unit comes one interval ({@code per / requests}) later. So such an
 * observation, instead of the hold-until-reset rule, starts a model of the provider's bucket: it
 * held {@code r} units when the response arrived (minus the requests still in flight, which may
 * take them), it gains one unit per interval since, and each send takes one; a send waits until the
 * model has a unit for it. The model errs towards waiting (the response arrives after the
 * provider's decision; a fractional unit is ignored); a later observation replaces it only when it
 * says the provider holds fewer units than the model expects.
 * Measured against the fake provider (R = 50/s, burst 10, {@code r=0;t=1}), holding until the
 * reset capped the scope at about 10 requests a second, and pacing by the configured bucket alone
 * (whose credit does not know the provider's bucket is empty) drew 429s (bench/run quota).
 *
 * <p>Time is kept as nanoseconds since the epoch in {@code long}s, not {@link Instant}s: this runs
 * for every send decision, under the engine's lock, and {@code bench/run engine} measured the
 * {@code Instant} arithmetic (an allocation per step) at about half the decision's cost. Instants
 * beyond the year 2116 are clamped (a provider's absurd reset date stays "far away").
 */
public final class Pacer {
  private record Rate(int requests, long perNanos, int backgroundLimit, int burst, long intervalNanos) {
    static Rate of(int requests, Duration per, int backgroundLimit, int burst) {
      long p = per.toNanos();
      return new Rate(requests, p, backgroundLimit, burst, p / requests);
    }
  }

  /** A reset this close is at the resolution of whole-second headers: see the class comment. */
  public static final Duration HEADER_RESOLUTION = ScopeUpdate.SHORT_RESET;

  /** How many sends are remembered while no rate is known. */
  static final int UNKNOWN_RATE_LOG = 256;

  private static final long NONE = Long.MIN_VALUE;
  /** About the year 2116: far enough for any real reset, with room left for the additions below. */
  private static final long FAR = Long.MAX_VALUE / 2;

  private final Optional<Rate> configured;
  private long[] ring = new long[16];
  private int head;
  private int size;
  private long tat = NONE;
  private long estimate = Long.MIN_VALUE; // unknown
  private long estimateReset = NONE;
  // The provider's bucket as last seen with a short reset: units at `modelAt`, sends since.
  private long modelAt = NONE;
  private long modelUnits;
  private long modelSent;
  // The rate learned from headers, kept while the same observation is in force (no allocation per decision).
  private LearnedQuota learnedFor;
  private Optional<Rate> learnedRate = Optional.empty();

  public Pacer(Optional<RateSettings> configured) {
    this.configured = configured.map(r -> Rate.of(r.requests(), r.per(), r.backgroundLimit(), r.burst().orElse(1)));
  }

  /** The earliest instant, not before {@code now}, at which a send of this priority may leave. */
  public Instant earliest(Priority priority, Instant now, Optional<LearnedQuota> learned) {
    long n = nanos(now);
    long t = n;
    Optional<Rate> rate = rate(learned);
    if (rate.isPresent()) {
      Rate r = rate.get();
      prune(n, r.perNanos());
      int limit = priority == Priority.INTERACTIVE ? r.requests() : r.backgroundLimit();
      if (size >= limit) {
        t = Math.max(t, at(size - limit) + r.perNanos());
      }
      if (tat != NONE) {
        t = Math.max(t, tat - r.intervalNanos() * (r.burst() - 1));
      }
    }
    if (estimate != Long.MIN_VALUE && estimate <= 0 && estimateReset != NONE && estimateReset > n) {
      t = Math.max(t, estimateReset);
    }
    if (modelAt != NONE && rate.isPresent()) {
      long owed = 1 + modelSent - modelUnits;
      if (owed > 0) {
        t = Math.max(t, modelAt + rate.get().intervalNanos() * owed);
      }
    }
    return t == n ? now : instant(t);
  }

  /**
   * Records a send at {@code now}. Sends made while no rate is known are logged too (the last
   * {@value #UNKNOWN_RATE_LOG}): the probe that teaches the quota is in the window it teaches, and
   * must count there.
   */
  public void onSend(Instant now, Optional<LearnedQuota> learned) {
    long n = nanos(now);
    Optional<Rate> rate = rate(learned);
    if (rate.isPresent()) {
      Rate r = rate.get();
      push(n, r.requests());
      long base = tat == NONE || tat < n ? n : tat;
      tat = base + r.intervalNanos();
    } else {
      push(n, UNKNOWN_RATE_LOG);
    }
    if (modelAt != NONE) {
      modelSent++;
    }
    if (estimate != Long.MIN_VALUE) {
      if (estimateReset != NONE && estimateReset <= n) {
        estimate = Long.MIN_VALUE; // the provider's counter has reset: the estimate is stale
      } else {
        estimate--;
      }
    }
  }

  /**
   * Takes a fresh remainder from the headers. Requests still in flight were sent after the
   * response was produced, so they are subtracted: the estimate errs towards waiting.
   */
  public void onObservation(Optional<LearnedQuota> learned, int othersInFlight) {
    if (learned.isEmpty() || learned.get().remaining().isEmpty() || learned.get().resetAt().isEmpty()) {
      return;
    }
    LearnedQuota q = learned.get();
    long units = q.remaining().getAsLong() - othersInFlight;
    Optional<Rate> rate = rate(learned);
    if (rate.isPresent() && !q.resetAt().get().isAfter(q.observedAt().plus(HEADER_RESOLUTION))) {
      estimate = Long.MIN_VALUE;
      estimateReset = NONE;
      // Keep the model when it already expects no more than this response says: an answer that
      // overtook a later one would otherwise make it optimistic, and a model started at an earlier
      // response keeps the sends spaced one interval apart instead of one interval after each answer.
      long observed = nanos(q.observedAt());
      if (modelAt == NONE || units < predicted(observed, rate.get())) {
        modelAt = observed;
        modelUnits = units;
        modelSent = 0;
      }
      return;
    }
    modelAt = NONE;
    estimate = units;
    estimateReset = nanos(q.resetAt().get());
  }

  /** The units the model expects the provider to hold at {@code t} (nanoseconds since the epoch). */
  private long predicted(long t, Rate r) {
    long gained = t > modelAt ? (t - modelAt) / Math.max(1, r.intervalNanos()) : 0;
    return modelUnits + gained - modelSent;
  }

  /** The rate in force, for operators. */
  public OptionalInt requestsPerWindow(Optional<LearnedQuota> learned) {
    return rate(learned).map(r -> OptionalInt.of(r.requests())).orElse(OptionalInt.empty());
  }

  private Optional<Rate> rate(Optional<LearnedQuota> learned) {
    if (configured.isPresent()) {
      return configured;
    }
    if (learned.isPresent() && learned.get().hasRate()) {
      LearnedQuota q = learned.get();
      if (q != learnedFor) {
        long limit = Math.min(Integer.MAX_VALUE, q.limit().getAsLong());
        learnedRate = Optional.of(Rate.of((int) limit, q.window().get(), (int) limit, 1));
        learnedFor = q;
      }
      return learnedRate;
    }
    return Optional.empty();
  }

  private void prune(long now, long perNanos) {
    long floor = now - perNanos;
    while (size > 0 && at(0) <= floor) {
      head = (head + 1) % ring.length;
      size--;
    }
  }

  private void push(long t, int keep) {
    if (size == ring.length && size < keep) {
      long[] bigger = new long[ring.length * 2];
      for (int i = 0; i < size; i++) {
        bigger[i] = at(i);
      }
      ring = bigger;
      head = 0;
    }
    if (size == ring.length || size >= keep) {
      // Only the last `keep` sends can decide a window; drop the oldest.
      head = (head + 1) % ring.length;
      size--;
    }
    ring[(head + size) % ring.length] = t;
    size++;
  }

  private long at(int i) {
    return ring[(head + i) % ring.length];
  }

  /** Nanoseconds since the epoch, clamped to ±{@link #FAR}. */
  static long nanos(Instant i) {
    long s = i.getEpochSecond();
    if (s >= FAR / 1_000_000_000L) {
      return FAR;
    }
    if (s <= -FAR / 1_000_000_000L) {
      return -FAR;
    }
    return s * 1_000_000_000L + i.getNano();
  }

  private static Instant instant(long nanos) {
    return Instant.ofEpochSecond(Math.floorDiv(nanos, 1_000_000_000L), Math.floorMod(nanos, 1_000_000_000L));
  }
}
