package dev.sluice.core.engine;

/** A handle on a scheduled wake-up. Cancelling twice, or after it ran, is harmless. */
@FunctionalInterface
public interface Cancellable {
  /** Stops the wake-up from running if it has not run yet. */
  void cancel();
}
