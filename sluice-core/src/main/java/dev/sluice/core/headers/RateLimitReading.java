package dev.sluice.core.headers;

import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Everything read from one response's rate-limit fields: the normalized observations of every
 * dialect read, in reader order, and the notes raised while reading them.
 *
 * <p>These observations shape future pacing only; they never clear a 429 already received
 * (DESIGN.md §3 rule 3).
 *
 * @param observations what was read, possibly none
 * @param notes what was ignored or adjusted while reading, possibly none
 */
public record RateLimitReading(List<RateLimitObservation> observations, List<HeaderNote> notes) {
  private static final RateLimitReading EMPTY = new RateLimitReading(List.of(), List.of());

  /**
   * Orders by tightness: lowest remaining fraction first; among equals, the later reset first
   * (it holds the scope longer), and a known reset before an unknown one.
   */
  private static final Comparator<RateLimitObservation> TIGHTEST_FIRST =
      Comparator.comparingDouble(RateLimitReading::remainingFraction)
          .thenComparing(o -> o.resetAt().orElse(null), Comparator.nullsLast(Comparator.<Instant>reverseOrder()));

  public RateLimitReading {
    observations = List.copyOf(observations);
    notes = List.copyOf(notes);
  }

  /** No observations, no notes. */
  public static RateLimitReading empty() {
    return EMPTY;
  }

  /** True when no observation was read (there may still be notes). */
  public boolean isEmpty() {
    return observations.isEmpty();
  }

  /** {@link #mostConstrained(RateLimitObservation.Unit)} for {@link RateLimitObservation.Unit#REQUESTS}. */
  public Optional<RateLimitObservation> mostConstrained() {
    return mostConstrained(RateLimitObservation.Unit.REQUESTS);
  }

  /**
   * The binding observation of {@code unit}: among those that say how much remains, the one with
   * the lowest remaining fraction ({@code remaining / limit}; an exhausted one is {@code 0}
   * whatever its limit; one without a usable limit counts as {@code 1}, i.e. unconstrained unless
   * exhausted). Ties go to the later reset, since it is the one that keeps the scope waiting
   * longest; then to the first read. Empty when no observation of {@code unit} has a remainder.
   */
  public Optional<RateLimitObservation> mostConstrained(RateLimitObservation.Unit unit) {
    Objects.requireNonNull(unit, "unit");
    if (observations.isEmpty()) {
      return Optional.empty(); // most responses carry no rate-limit fields: no stream for them (read on every response)
    }
    return observations.stream()
        .filter(o -> o.unit() == unit && o.remaining().isPresent())
        .min(TIGHTEST_FIRST);
  }

  private static double remainingFraction(RateLimitObservation o) {
    long remaining = o.remaining().orElseThrow();
    if (remaining == 0) {
      return 0.0;
    }
    if (o.limit().isEmpty() || o.limit().getAsLong() == 0) {
      return 1.0;
    }
    return Math.min(1.0, (double) remaining / o.limit().getAsLong());
  }
}
