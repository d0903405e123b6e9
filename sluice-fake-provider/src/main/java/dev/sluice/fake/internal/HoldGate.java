package dev.sluice.fake.internal;

import java.time.Duration;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Where held requests wait until released. Uses a lock and conditions (not {@code synchronized})
 * so waiting virtual threads do not pin their carriers.
 */
public final class HoldGate {

  private final ReentrantLock lock = new ReentrantLock();
  private final Condition released = lock.newCondition();
  private final Condition heldChanged = lock.newCondition();
  private long generation;
  private int held;
  private boolean closed;

  /** Waits until {@link #releaseAll()} or {@code max} passes; returns at once after {@link #close()}. */
  public void hold(Duration max) throws InterruptedException {
    lock.lock();
    try {
      if (closed) {
        return;
      }
      long gen = generation;
      held++;
      heldChanged.signalAll();
      try {
        long nanos = max.toNanos();
        while (generation == gen && !closed && nanos > 0) {
          nanos = released.awaitNanos(nanos);
        }
      } finally {
        held--;
        heldChanged.signalAll();
      }
    } finally {
      lock.unlock();
    }
  }

  /** Releases every request held now; returns how many. */
  public int releaseAll() {
    lock.lock();
    try {
      int n = held;
      generation++;
      released.signalAll();
      return n;
    } finally {
      lock.unlock();
    }
  }

  /** Waits until at least {@code n} requests are held; false on timeout. */
  public boolean awaitHeld(int n, Duration timeout) throws InterruptedException {
    lock.lock();
    try {
      long nanos = timeout.toNanos();
      while (held < n) {
        if (nanos <= 0) {
          return false;
        }
        nanos = heldChanged.awaitNanos(nanos);
      }
      return true;
    } finally {
      lock.unlock();
    }
  }

  public int held() {
    lock.lock();
    try {
      return held;
    } finally {
      lock.unlock();
    }
  }

  /** Releases everyone for good (the provider is closing). */
  public void close() {
    lock.lock();
    try {
      closed = true;
      generation++;
      released.signalAll();
    } finally {
      lock.unlock();
    }
  }
}
