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
 */
public final class Pacer {
  private record Rate(int requests, Duration per, int backgroundLimit, int burst) {
    Duration interval() {
      return per.dividedBy(requests);
    }
  }

  /** A reset this close is at the resolution of whole-second headers: see the class comment. */
  public static final Duration HEADER_RESOLUTION = ScopeUpdate.SHORT_RESET;

  /** How many sends are remembered while no rate is known. */
  static final int UNKNOWN_RATE_LOG = 256;

  private final Optional<Rate> configured;
  private Instant[] ring = new Instant[16];
  private int head;
  private int size;
  private Instant tat;
  private long estimate = Long.MIN_VALUE; // unknown
  private Instant estimateReset;
  // The provider's bucket as last seen with a short reset: units at `modelAt`, sends since.
  private Instant modelAt;
  private long modelUnits;
  private long modelSent;

  public Pacer(Optional<RateSettings> configured) {
    this.configured = configured.map(r -> new Rate(r.requests(), r.per(), r.backgroundLimit(), r.burst().orElse(1)));
  }

  /** The earliest instant, not before {@code now}, at which a send of this priority may leave. */
  public Instant earliest(Priority priority, Instant now, Optional<LearnedQuota> learned) {
    Instant t = now;
    Optional<Rate> rate = rate(learned);
    if (rate.isPresent()) {
      Rate r = rate.get();
      prune(now, r.per());
      int limit = priority == Priority.INTERACTIVE ? r.requests() : r.backgroundLimit();
      if (size >= limit) {
        t = max(t, at(size - limit).plus(r.per()));
      }
      if (tat != null) {
        t = max(t, tat.minus(r.interval().multipliedBy(r.burst() - 1)));
      }
    }
    if (estimate != Long.MIN_VALUE && estimate <= 0 && estimateReset != null && estimateReset.isAfter(now)) {
      t = max(t, estimateReset);
    }
    if (modelAt != null && rate.isPresent()) {
      long owed = 1 + modelSent - modelUnits;
      if (owed > 0) {
        t = max(t, modelAt.plus(rate.get().interval().multipliedBy(owed)));
      }
    }
    return t;
  }

  /**
   * Records a send at {@code now}. Sends made while no rate is known are logged too (the last
   * {@value #UNKNOWN_RATE_LOG}): the probe that teaches the quota is in the window it teaches, and
   * must count there.
   */
  public void onSend(Instant now, Optional<LearnedQuota> learned) {
    Optional<Rate> rate = rate(learned);
    if (rate.isPresent()) {
      Rate r = rate.get();
      push(now, r.requests());
      Instant base = tat == null || tat.isBefore(now) ? now : tat;
      tat = base.plus(r.interval());
    } else {
      push(now, UNKNOWN_RATE_LOG);
    }
    if (modelAt != null) {
      modelSent++;
    }
    if (estimate != Long.MIN_VALUE) {
      if (estimateReset != null && !estimateReset.isAfter(now)) {
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
      estimateReset = null;
      // Keep the model when it already expects no more than this response says: an answer that
      // overtook a later one would otherwise make it optimistic, and a model started at an earlier
      // response keeps the sends spaced one interval apart instead of one interval after each answer.
      if (modelAt == null || units < predicted(q.observedAt(), rate.get())) {
        modelAt = q.observedAt();
        modelUnits = units;
        modelSent = 0;
      }
      return;
    }
    modelAt = null;
    estimate = units;
    estimateReset = q.resetAt().get();
  }

  /** The units the model expects the provider to hold at {@code t}. */
  private long predicted(Instant t, Rate r) {
    long gained = t.isAfter(modelAt) ? Duration.between(modelAt, t).toNanos() / Math.max(1, r.interval().toNanos()) : 0;
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
      long limit = Math.min(Integer.MAX_VALUE, learned.get().limit().getAsLong());
      return Optional.of(new Rate((int) limit, learned.get().window().get(), (int) limit, 1));
    }
    return Optional.empty();
  }

  private void prune(Instant now, Duration per) {
    Instant floor = now.minus(per);
    while (size > 0 && !at(0).isAfter(floor)) {
      ring[head] = null;
      head = (head + 1) % ring.length;
      size--;
    }
  }

  private void push(Instant t, int keep) {
    if (size == ring.length && size < keep) {
      Instant[] bigger = new Instant[ring.length * 2];
      for (int i = 0; i < size; i++) {
        bigger[i] = at(i);
      }
      ring = bigger;
      head = 0;
    }
    if (size == ring.length || size >= keep) {
      // Only the last `keep` sends can decide a window; drop the oldest.
      ring[head] = null;
      head = (head + 1) % ring.length;
      size--;
    }
    ring[(head + size) % ring.length] = t;
    size++;
  }

  private Instant at(int i) {
    return ring[(head + i) % ring.length];
  }

  private static Instant max(Instant a, Instant b) {
    return a.isAfter(b) ? a : b;
  }
}
