package dev.sluice.core.engine.internal;

import dev.sluice.core.engine.CircuitSettings;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Stops a path after repeated identical failures (DESIGN.md §3 rule 9). Failures are counted per
 * task and per failure fingerprint (path + normalized error); when one fingerprint reaches the
 * threshold inside the window, the whole path (method, route, stable payload) is open for that
 * task until those failures age out of the window. A success on the path forgets its failures.
 * Not thread-safe: the engine calls it under its lock.
 */
public final class CircuitBreaker {
  /** An open circuit: the fingerprint that tripped it and the last error seen. */
  public record Open(String fingerprint, String lastError, int failures) {}

  private record PathKey(String taskId, String pathFingerprint) {}

  private static final class Failures {
    final ArrayDeque<Instant> at = new ArrayDeque<>();
    String lastError;
  }

  private final CircuitSettings settings;
  private final Map<PathKey, Map<String, Failures>> paths = new HashMap<>();

  public CircuitBreaker(CircuitSettings settings) {
    this.settings = Objects.requireNonNull(settings, "settings");
  }

  /** The open circuit on this task's path, if any. */
  public Optional<Open> openFor(String taskId, String pathFingerprint, Instant now) {
    Map<String, Failures> byFp = paths.get(new PathKey(taskId, pathFingerprint));
    if (byFp == null) {
      return Optional.empty();
    }
    Instant floor = now.minus(settings.window());
    Optional<Open> open = Optional.empty();
    for (Iterator<Map.Entry<String, Failures>> it = byFp.entrySet().iterator(); it.hasNext(); ) {
      Map.Entry<String, Failures> e = it.next();
      Failures f = e.getValue();
      while (!f.at.isEmpty() && !f.at.peekFirst().isAfter(floor)) {
        f.at.pollFirst();
      }
      if (f.at.isEmpty()) {
        it.remove();
      } else if (f.at.size() >= settings.threshold() && open.isEmpty()) {
        open = Optional.of(new Open(e.getKey(), f.lastError, f.at.size()));
      }
    }
    if (byFp.isEmpty()) {
      paths.remove(new PathKey(taskId, pathFingerprint));
    }
    return open;
  }

  /** Counts one failure and returns the open circuit if this failure tripped (or kept) it open. */
  public Optional<Open> recordFailure(String taskId, String pathFingerprint, String failureFingerprint, String error, Instant now) {
    Failures f = paths.computeIfAbsent(new PathKey(taskId, pathFingerprint), k -> new HashMap<>())
        .computeIfAbsent(failureFingerprint, k -> new Failures());
    f.at.addLast(now);
    f.lastError = error;
    return openFor(taskId, pathFingerprint, now);
  }

  /** A success on the path: its failures are forgotten. */
  public void recordSuccess(String taskId, String pathFingerprint) {
    paths.remove(new PathKey(taskId, pathFingerprint));
  }
}
