package dev.sluice.acceptance;

import dev.sluice.core.classify.AttemptResult;
import dev.sluice.core.engine.AttemptRequest;
import dev.sluice.core.engine.Transport;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;

/**
 * Wraps the real transport so a virtual-time test can wait for the network without sleeping:
 * {@link #awaitIdle} returns once every attempt handed to the transport has completed <em>and</em>
 * the engine has processed it (the engine's callback runs inside {@code complete()}, before the
 * count drops). Counts nothing the tests assert on: attempts are counted at the fake provider.
 */
final class TrackingTransport implements Transport {
  private final Transport inner;
  private final Object lock = new Object();
  private int outstanding;
  private int inFlight;
  private int maxInFlight;

  TrackingTransport(Transport inner) {
    this.inner = inner;
  }

  @Override
  public CompletableFuture<AttemptResult> send(AttemptRequest request) {
    synchronized (lock) {
      outstanding++;
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
    }
    CompletableFuture<AttemptResult> outer = new CompletableFuture<>();
    CompletableFuture<AttemptResult> f = inner.send(request);
    outer.whenComplete((r, e) -> {
      if (outer.isCancelled()) {
        f.cancel(true);
      }
    });
    f.whenComplete((r, e) -> {
      synchronized (lock) {
        inFlight--; // the exchange is over; what the engine does next is not in flight
      }
      try {
        if (e != null) {
          outer.completeExceptionally(e);
        } else {
          outer.complete(r);
        }
      } finally {
        synchronized (lock) {
          outstanding--;
          lock.notifyAll();
        }
      }
    });
    return outer;
  }

  /** Whether no attempt is outstanding now. */
  boolean idle() {
    synchronized (lock) {
      return outstanding == 0;
    }
  }

  /** Waits until no attempt is in flight; fails the test after {@code timeout}. */
  void awaitIdle(Duration timeout) {
    long end = System.nanoTime() + timeout.toNanos();
    synchronized (lock) {
      while (outstanding > 0) {
        long left = end - System.nanoTime();
        if (left <= 0) {
          throw new AssertionError(outstanding + " attempts still in flight after " + timeout);
        }
        try {
          lock.wait(Math.max(1, left / 1_000_000));
        } catch (InterruptedException ie) {
          Thread.currentThread().interrupt();
          throw new AssertionError("interrupted", ie);
        }
      }
    }
  }

  /** The most exchanges open at once on the client side (to show a concurrency test is not vacuous). */
  int maxInFlight() {
    synchronized (lock) {
      return maxInFlight;
    }
  }
}
