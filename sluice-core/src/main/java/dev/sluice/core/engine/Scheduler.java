package dev.sluice.core.engine;

import java.time.Instant;

/**
 * The engine's only source of time and its only way to wake up later. Engine code never reads the
 * system clock and never sleeps: it asks {@link #now()} and schedules a callback.
 *
 * <p>Contract: {@link #schedule} must be cheap for many outstanding wake-ups (a heap of due times
 * served by one timer, not a thread per wake-up); callbacks run at or after their due instant,
 * never before; callbacks with equal due instants run in the order they were scheduled. A due
 * instant already past runs as soon as possible. Callbacks must be short: they are the engine's
 * own bookkeeping and never block.
 *
 * <p>Implementations: {@link SystemScheduler} (wall clock, one timer thread) and {@link
 * VirtualScheduler} (tests: time moves only when the test advances it).
 */
public interface Scheduler {

  /** The current instant. */
  Instant now();

  /**
   * Runs {@code task} once at {@code dueAt}.
   *
   * @return a handle that cancels the wake-up
   */
  Cancellable schedule(Instant dueAt, Runnable task);
}
