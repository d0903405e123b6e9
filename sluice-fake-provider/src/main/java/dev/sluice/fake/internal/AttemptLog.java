package dev.sluice.fake.internal;

import dev.sluice.fake.Attempt;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;

/**
 * The ground truth: every attempt, appended at arrival, completed as it is answered. Thread-safe;
 * a {@link ReentrantLock} rather than {@code synchronized} so virtual threads never pin.
 */
public final class AttemptLog {

  private final ReentrantLock lock = new ReentrantLock();
  private final List<Entry> entries = new ArrayList<>();

  /**
   * Appends an attempt and, under the same lock, runs {@code atArrival} with its sequence number, so
   * that whatever it decides (which fault rules strike) follows exactly the order of the log.
   */
  public <T> Arrival<T> append(
      Instant arrivedAt, String method, String path, String query, String family, String scope,
      Optional<String> key, Optional<String> task, Function<Long, T> atArrival) {
    lock.lock();
    try {
      long seq = entries.size() + 1L;
      Entry e = new Entry(seq, arrivedAt, method, path, query, family, scope, key, task);
      entries.add(e);
      return new Arrival<>(e, atArrival.apply(seq));
    } finally {
      lock.unlock();
    }
  }

  /** An appended entry and what was decided at its arrival. */
  public record Arrival<T>(Entry entry, T decided) {}

  /** A copy of the log, in arrival order. */
  public List<Attempt> snapshot() {
    lock.lock();
    try {
      List<Attempt> out = new ArrayList<>(entries.size());
      for (Entry e : entries) {
        out.add(e.toAttempt());
      }
      return out;
    } finally {
      lock.unlock();
    }
  }

  public void clear() {
    lock.lock();
    try {
      entries.clear();
    } finally {
      lock.unlock();
    }
  }

  /** One attempt being handled; its outcome fields are written by the handling thread. */
  public static final class Entry {
    private final long seq;
    private final Instant arrivedAt;
    private final String method;
    private final String path;
    private final String query;
    private final String family;
    private final String scope;
    private final Optional<String> key;
    private final Optional<String> task;
    private final List<String> faults = new CopyOnWriteArrayList<>();
    private volatile int status;
    private volatile Attempt.Result result = Attempt.Result.PENDING;
    private volatile String operationId;
    private volatile boolean replayed;

    Entry(long seq, Instant arrivedAt, String method, String path, String query, String family, String scope,
        Optional<String> key, Optional<String> task) {
      this.seq = seq;
      this.arrivedAt = arrivedAt;
      this.method = method;
      this.path = path;
      this.query = query;
      this.family = family;
      this.scope = scope;
      this.key = key;
      this.task = task;
    }

    public long seq() {
      return seq;
    }

    public void fault(String name) {
      faults.add(name);
    }

    public void status(int s) {
      this.status = s;
    }

    public void result(Attempt.Result r) {
      this.result = r;
    }

    public void operationId(String id) {
      this.operationId = id;
    }

    public void replayed(boolean r) {
      this.replayed = r;
    }

    Attempt toAttempt() {
      return new Attempt(seq, arrivedAt, method, path, query, family, scope, key, task, status, result,
          List.copyOf(faults), Optional.ofNullable(operationId), replayed);
    }
  }
}
