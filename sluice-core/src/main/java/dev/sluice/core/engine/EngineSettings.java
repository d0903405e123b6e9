package dev.sluice.core.engine;

import dev.sluice.core.classify.Classifier;
import dev.sluice.core.headers.RateLimitReader;
import dev.sluice.core.headers.RetryAfterPolicy;
import dev.sluice.core.retry.Backoff;
import dev.sluice.core.retry.RetryPlanner;
import java.util.Objects;
import java.util.SplittableRandom;
import java.util.random.RandomGenerator;

/**
 * The engine's collaborators and engine-wide settings. Defaults ({@link #defaults()}): the
 * standard classifier (no quota rules), the seed's backoff (1 s base, 60 s cap), every rate-limit
 * dialect, Retry-After bounded to [1 s, 1 h], the circuit at 3 identical failures in 10 minutes,
 * and an unseeded random source. Tests pass a seeded random so jitter is exact.
 *
 * @param classifier turns each attempt's result into a verdict
 * @param planner decides retries
 * @param rateLimitReader reads rate-limit headers in any dialect
 * @param retryAfterPolicy bounds server-given delays; its minimum delay is the hold after a 429
 *     that names none
 * @param circuit the circuit breaker's threshold, window and volatile payload fields
 * @param random jitter source (retry delays and reopen spread); used under the engine's lock only
 */
public record EngineSettings(
    Classifier classifier,
    RetryPlanner planner,
    RateLimitReader rateLimitReader,
    RetryAfterPolicy retryAfterPolicy,
    CircuitSettings circuit,
    RandomGenerator random) {

  public EngineSettings {
    Objects.requireNonNull(classifier, "classifier");
    Objects.requireNonNull(planner, "planner");
    Objects.requireNonNull(rateLimitReader, "rateLimitReader");
    Objects.requireNonNull(retryAfterPolicy, "retryAfterPolicy");
    Objects.requireNonNull(circuit, "circuit");
    Objects.requireNonNull(random, "random");
  }

  /** The defaults listed above. */
  public static EngineSettings defaults() {
    return new EngineSettings(Classifier.standard(), new RetryPlanner(Backoff.SEED_DEFAULT), RateLimitReader.standard(),
        RetryAfterPolicy.defaults(), CircuitSettings.DEFAULT, new SplittableRandom());
  }

  public EngineSettings withRandom(RandomGenerator r) {
    return new EngineSettings(classifier, planner, rateLimitReader, retryAfterPolicy, circuit, r);
  }

  public EngineSettings withCircuit(CircuitSettings c) {
    return new EngineSettings(classifier, planner, rateLimitReader, retryAfterPolicy, c, random);
  }

  public EngineSettings withClassifier(Classifier c) {
    return new EngineSettings(c, planner, rateLimitReader, retryAfterPolicy, circuit, random);
  }

  public EngineSettings withPlanner(RetryPlanner p) {
    return new EngineSettings(classifier, p, rateLimitReader, retryAfterPolicy, circuit, random);
  }
}
