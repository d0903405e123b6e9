package dev.sluice.core.classify;

import dev.sluice.core.http.Headers;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Objects;

/** What came back from one attempt: a complete HTTP response, or a transport failure. */
public sealed interface AttemptResult {

  /** A complete response. Only a bounded prefix of the body is kept for classification. */
  record Response(int status, Headers headers, byte[] bodyPrefix) implements AttemptResult {
    /** The most body bytes kept for classification (provider error bodies are small). */
    public static final int BODY_PREFIX_LIMIT = 64 * 1024;

    public Response {
      if (status < 100 || status > 599) {
        throw new IllegalArgumentException("HTTP status must be 100..599, got " + status);
      }
      Objects.requireNonNull(headers, "headers");
      bodyPrefix = bodyPrefix == null ? new byte[0] : Arrays.copyOf(bodyPrefix, Math.min(bodyPrefix.length, BODY_PREFIX_LIMIT));
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
      return o instanceof Response r && r.status == status && r.headers.equals(headers) && Arrays.equals(r.bodyPrefix, bodyPrefix);
    }

    @Override
    public int hashCode() {
      return 31 * (31 * status + headers.hashCode()) + Arrays.hashCode(bodyPrefix);
    }

    @Override
    public String toString() {
      return "Response[" + status + ", " + headers.names() + ", " + bodyPrefix.length + " body bytes]";
    }
  }

  /** The attempt failed below HTTP. */
  record Failure(TransportFailure kind) implements AttemptResult {
    public Failure {
      Objects.requireNonNull(kind, "kind");
    }
  }
}
