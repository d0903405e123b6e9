package dev.sluice.core.engine;

import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.Objects;
import java.util.Optional;
import java.util.PriorityQueue;

/**
 * A {@link Scheduler} on virtual time for tests: the clock stands still until {@link
 * #advance(Duration)} or {@link #advanceTo(Instant)} moves it, and then every wake-up that falls due
 * runs on the calling thread, in due-time order (ties in scheduling order), with {@link #now()}
 * set to each wake-up's own due instant while it runs. Fully deterministic; no threads.
 *
 * <p>Wake-ups scheduled in the past run at the current instant on the next advance (or {@link
 * #runDue()}). An exception thrown by a wake-up propagates to the caller of {@code advance}, so a
 * bug in the engine fails the test instead of vanishing. Thread-safe: other threads may schedule
 * while one thread advances.
 */
public final class VirtualScheduler implements Scheduler {
  private static final Comparator<Entry> ORDER = Comparator.comparing((Entry e) -> e.dueAt).thenComparingLong(e -> e.seq);

  private final Object lock = new Object();
  private final PriorityQueue<Entry> queue = new PriorityQueue<>(ORDER);
  private Instant now;
  private long seq;
  private int live;

  /** A virtual clock that starts at {@code start}. */
  public VirtualScheduler(Instant start) {
    this.now = Objects.requireNonNull(start, "start");
  }

  @Override
  public Instant now() {
    synchronized (lock) {
      return now;
    }
  }

  @Override
  public Cancellable schedule(Instant dueAt, Runnable task) {
    Objects.requireNonNull(dueAt, "dueAt");
    Objects.requireNonNull(task, "task");
    synchronized (lock) {
      Entry e = new Entry(dueAt, seq++, task);
      queue.add(e);
      live++;
      return e;
    }
  }

  /** Moves time forward by {@code d}, running everything that falls due on the way. */
  public void advance(Duration d) {
    if (d.isNegative()) {
      throw new IllegalArgumentException("virtual time cannot go backwards: " + d);
    }
    advanceTo(now().plus(d));
  }

  /** Moves time forward to {@code target} (no-op if it is not later), running everything due. */
  public void advanceTo(Instant target) {
    while (true) {
      Entry e;
      synchronized (lock) {
        e = queue.peek();
        if (e == null || e.dueAt.isAfter(target)) {
          if (target.isAfter(now)) {
            now = target;
          }
          return;
        }
        queue.poll();
        if (e.dueAt.isAfter(now)) {
          now = e.dueAt;
        }
        if (e.cancelled) {
          continue;
        }
        e.cancelled = true; // ran: a later cancel() is a no-op
        live--;
      }
      e.task.run();
    }
  }

  /** Runs everything due at the current instant without moving time. */
  public void runDue() {
    advanceTo(now());
  }

  /** Moves time to each next due instant until nothing is scheduled or {@code limit} is reached. */
  public void runUntilIdle(Instant limit) {
    while (true) {
      Optional<Instant> next = nextDue();
      if (next.isEmpty() || next.get().isAfter(limit)) {
        return;
      }
      advanceTo(next.get());
    }
  }

  /** The due instant of the earliest live wake-up. */
  public Optional<Instant> nextDue() {
    synchronized (lock) {
      while (!queue.isEmpty() && queue.peek().cancelled) {
        queue.poll();
      }
      return queue.isEmpty() ? Optional.empty() : Optional.of(queue.peek().dueAt);
    }
  }

  /** How many wake-ups are scheduled and not cancelled. */
  public int pending() {
    synchronized (lock) {
      return live;
    }
  }

  private final class Entry implements Cancellable {
    final Instant dueAt;
    final long seq;
    final Runnable task;
    boolean cancelled;

    Entry(Instant dueAt, long seq, Runnable task) {
      this.dueAt = dueAt;
      this.seq = seq;
      this.task = task;
    }

    @Override
    public void cancel() {
      synchronized (lock) {
        if (!cancelled) {
          cancelled = true; // removed lazily when its time comes: O(1) cancel
          live--;
        }
      }
    }
  }
}
