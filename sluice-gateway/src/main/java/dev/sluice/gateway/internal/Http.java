package dev.sluice.gateway.internal;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Set;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/** Writing answers: JSON, problem documents, and which header fields never cross the gateway. */
public final class Http {
  public static final ObjectMapper JSON = new ObjectMapper().disable(SerializationFeature.FAIL_ON_EMPTY_BEANS);

  /** Hop-by-hop and framing fields (RFC 9110 §7.6.1): never relayed in either direction. */
  public static final Set<String> HOP_BY_HOP = Set.of(
      "connection", "keep-alive", "proxy-connection", "proxy-authenticate", "proxy-authorization", "te", "trailer",
      "transfer-encoding", "upgrade", "content-length", "host", "expect");

  private Http() {}

  public static boolean hopByHop(String name) {
    return HOP_BY_HOP.contains(name.toLowerCase(Locale.ROOT));
  }

  public static byte[] json(Object value) {
    try {
      return JSON.writeValueAsBytes(value);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("could not write JSON: " + e.getOriginalMessage(), e);
    }
  }

  public static void write(Response response, int status, String contentType, byte[] body, Callback callback) {
    response.setStatus(status);
    if (contentType != null) {
      response.getHeaders().put("Content-Type", contentType);
    }
    response.getHeaders().put("Content-Length", String.valueOf(body.length));
    response.write(true, ByteBuffer.wrap(body), callback);
  }

  public static void writeJson(Response response, int status, Object value, Callback callback) {
    write(response, status, "application/json", json(value), callback);
  }

  /** A problem document, with {@code x-should-retry: false} and {@code Retry-After} only when it has one. */
  public static void writeProblem(Response response, Problem p, Callback callback) {
    response.getHeaders().put("x-should-retry", "false");
    p.retryAfterSeconds().ifPresent(s -> response.getHeaders().put("Retry-After", String.valueOf(s)));
    write(response, p.status(), Problem.MEDIA_TYPE, json(p.body()), callback);
  }

  public static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
