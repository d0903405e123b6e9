package dev.sluice.core.journal;

import dev.sluice.core.classify.TransportFailure;
import java.util.Objects;

/**
 * How an attempt ended: a response with a status, a transport failure (which says whether request
 * bytes had left), or abandoned because the process stopped while it was in flight.
 */
public sealed interface AttemptEnd {

  /** Whether request bytes may have reached the provider. */
  boolean requestCommitted();

  /** Whether a complete response arrived. */
  boolean responseReceived();

  /** As stored: the status as text, a transport failure's code, or {@code abandoned}. */
  String code();

  /** A complete response arrived. */
  static AttemptEnd response(int status) {
    return new Response(status);
  }

  /** The transport failed below HTTP. */
  static AttemptEnd failed(TransportFailure failure) {
    return new Failed(failure);
  }

  /** The process stopped while the attempt was in flight: bytes may or may not have left. */
  static AttemptEnd abandoned() {
    return Abandoned.INSTANCE;
  }

  /** @param status the HTTP status, 100-599 */
  record Response(int status) implements AttemptEnd {
    public Response {
      if (status < 100 || status > 599) {
        throw new IllegalArgumentException("an HTTP status lies in 100-599, got " + status);
      }
    }

    @Override
    public boolean requestCommitted() {
      return true;
    }

    @Override
    public boolean responseReceived() {
      return true;
    }

    @Override
    public String code() {
      return Integer.toString(status);
    }
  }

  /** @param failure what failed, and whether bytes had left */
  record Failed(TransportFailure failure) implements AttemptEnd {
    public Failed {
      Objects.requireNonNull(failure, "failure");
    }

    @Override
    public boolean requestCommitted() {
      return failure.afterSend();
    }

    @Override
    public boolean responseReceived() {
      return false;
    }

    @Override
    public String code() {
      return failure.code();
    }
  }

  /** The process died with the attempt in flight (found on restart). */
  record Abandoned() implements AttemptEnd {
    static final Abandoned INSTANCE = new Abandoned();
    /** The stored code. */
    public static final String CODE = "abandoned";

    @Override
    public boolean requestCommitted() {
      return true; // unknown, so assume the worst: the provider may have it
    }

    @Override
    public boolean responseReceived() {
      return false;
    }

    @Override
    public String code() {
      return CODE;
    }
  }
}
