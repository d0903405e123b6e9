package dev.sluice.core.engine;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A {@link Scheduler} on a real {@link Clock}: one daemon timer thread ({@code sluice-scheduler})
 * serving a heap of due times ({@link ScheduledThreadPoolExecutor}'s delay queue), so a hundred
 * thousand waiting requests cost a heap entry each, never a thread. Cancelled wake-ups are removed
 * from the heap at once. A wake-up that throws is logged and does not stop the timer.
 *
 * <p>Close it when the engine stops; pending wake-ups are dropped.
 */
public final class SystemScheduler implements Scheduler, AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(SystemScheduler.class);

  private final Clock clock;
  private final ScheduledThreadPoolExecutor timer;

  /** A scheduler reading {@code clock} (usually {@link Clock#systemUTC()}). */
  public SystemScheduler(Clock clock) {
    this.clock = Objects.requireNonNull(clock, "clock");
    this.timer = new ScheduledThreadPoolExecutor(1, r -> {
      Thread t = new Thread(r, "sluice-scheduler");
      t.setDaemon(true);
      return t;
    });
    timer.setRemoveOnCancelPolicy(true);
    timer.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
  }

  @Override
  public Instant now() {
    return clock.instant();
  }

  @Override
  public Cancellable schedule(Instant dueAt, Runnable task) {
    Objects.requireNonNull(task, "task");
    long nanos = Math.max(0, Duration.between(now(), dueAt).toNanos());
    ScheduledFuture<?> f = timer.schedule(() -> {
      try {
        task.run();
      } catch (RuntimeException | Error e) {
        LOG.error("a scheduled engine task failed", e);
      }
    }, nanos, TimeUnit.NANOSECONDS);
    return () -> f.cancel(false);
  }

  /** How many wake-ups are waiting (for metrics and tests). */
  public int pending() {
    return timer.getQueue().size();
  }

  @Override
  public void close() {
    timer.shutdownNow();
  }
}
