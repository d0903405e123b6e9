package dev.sluice.core.transport.internal;

import dev.sluice.core.classify.TransportFailure;
import java.net.SocketTimeoutException;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.TimeoutException;

/**
 * Which {@link TransportFailure} a failed exchange was, from what the client's listeners saw. The
 * single fact that matters is whether request bytes may have left.
 *
 * <p>Nothing left only while the exchange had no connection yet ({@link Stage#CONNECTING}: the
 * connect failed or timed out, or the client refused to queue it): {@code connect_failed} or
 * {@code connect_timeout}. From the moment the request began on a connection, bytes may have left,
 * so a failure is {@code reset_after_send} or {@code read_timeout}: the outcome is unknown. Jetty's
 * "committed" notification is not enough to draw the line later: a reset that arrives after the
 * server read the whole request can fail the exchange before the commit notification runs (a test
 * reproduces it), and calling that "nothing sent" would let a write be repeated blindly. A response
 * whose head arrived and whose body did not complete is {@code truncated_response}.
 */
public final class FailureMapping {
  private FailureMapping() {}

  /** How far an exchange got before it failed; it only moves forward. */
  public enum Stage {
    /** No connection yet: connecting, or waiting in the client's queue for one. Nothing sent. */
    CONNECTING,
    /** The request began on a connection: its bytes may be leaving. */
    WRITING,
    /** The client reported the request head written (committed). */
    COMMITTED,
    /** The response status and headers arrived; the body did not complete. */
    RESPONDING
  }

  /** The failure kind for an exchange that failed at {@code stage} with {@code cause}. */
  public static TransportFailure kind(Stage stage, Throwable cause) {
    boolean timeout = isTimeout(cause);
    return switch (stage) {
      case CONNECTING -> timeout ? TransportFailure.CONNECT_TIMEOUT : TransportFailure.CONNECT_FAILED;
      case WRITING, COMMITTED -> timeout ? TransportFailure.READ_TIMEOUT : TransportFailure.RESET_AFTER_SEND;
      case RESPONDING -> TransportFailure.TRUNCATED_RESPONSE;
    };
  }

  /** Whether a timeout is anywhere in the cause chain (Jetty wraps them). */
  static boolean isTimeout(Throwable t) {
    Set<Throwable> seen = new HashSet<>();
    for (Throwable c = t; c != null && seen.add(c); c = c.getCause()) {
      if (c instanceof TimeoutException || c instanceof SocketTimeoutException) {
        return true;
      }
    }
    return false;
  }
}
