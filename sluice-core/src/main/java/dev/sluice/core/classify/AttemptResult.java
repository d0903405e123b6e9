package dev.sluice.core.classify;

import dev.sluice.core.http.Headers;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Objects;

/** What came back from one attempt: a complete HTTP response, or a transport failure. */
public sealed interface AttemptResult {

  /**
   * A response: its status and head arrived complete. Only a bounded prefix of the body is kept
   * for classification. {@code bodyTooLarge}: the body was longer than the transport's cap, so it
   * was not read ({@code bodyPrefix} is then empty); the status still stands — the provider
   * answered, and for a write its effect is what the status says.
   */
  record Response(int status, Headers headers, byte[] bodyPrefix, boolean bodyTooLarge) implements AttemptResult {
    /** The most body bytes kept for classification (provider error bodies are small). */
    public static final int BODY_PREFIX_LIMIT = 64 * 1024;

    public Response {
      if (status < 100 || status > 599) {
        throw new IllegalArgumentException("HTTP status must be 100..599, got " + status);
      }
      Objects.requireNonNull(headers, "headers");
      bodyPrefix = bodyPrefix == null ? new byte[0] : Arrays.copyOf(bodyPrefix, Math.min(bodyPrefix.length, BODY_PREFIX_LIMIT));
    }

    /** A response whose body (its first {@link #BODY_PREFIX_LIMIT} bytes) was read. */
    public Response(int status, Headers headers, byte[] bodyPrefix) {
      this(status, headers, bodyPrefix, false);
    }

    /** A response whose body was over the transport's cap and was not read. */
    public static Response bodyOverCap(int status, Headers headers) {
      return new Response(status, headers, new byte[0], true);
    }

    public Response(int status, Headers headers) {
      this(status, headers, new byte[0]);
    }

    public Response(int status, Headers headers, String body) {
      this(status, headers, body.getBytes(StandardCharsets.UTF_8));
    }

    @Override
    public byte[] bodyPrefix() {
      return bodyPrefix.clone();
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Response r && r.status == status && r.headers.equals(headers) && Arrays.equals(r.bodyPrefix, bodyPrefix)
          && r.bodyTooLarge == bodyTooLarge;
    }

    @Override
    public int hashCode() {
      return 31 * (31 * status + headers.hashCode()) + Arrays.hashCode(bodyPrefix);
    }

    @Override
    public String toString() {
      return "Response[" + status + ", " + headers.names() + ", " + (bodyTooLarge ? "body over the cap" : bodyPrefix.length + " body bytes") + "]";
    }
  }

  /** The attempt failed below HTTP. */
  record Failure(TransportFailure kind) implements AttemptResult {
    public Failure {
      Objects.requireNonNull(kind, "kind");
    }
  }
}
