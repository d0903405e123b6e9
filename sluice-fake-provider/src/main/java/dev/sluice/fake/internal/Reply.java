package dev.sluice.fake.internal;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A response the fake has decided to give, before delivery (which faults may spoil). Immutable; the
 * {@code with*} methods return copies, so a stored reply can be replayed safely.
 *
 * @param status the HTTP status
 * @param headers header fields in order (Content-Type and Content-Length are added at delivery)
 * @param body the body bytes (JSON)
 * @param operationId the operation id of the write it reports, if any
 */
public record Reply(int status, List<Map.Entry<String, String>> headers, byte[] body, Optional<String> operationId) {

  public Reply {
    headers = List.copyOf(headers);
    body = body.clone();
  }

  @Override
  public byte[] body() {
    return body.clone();
  }

  public int bodyLength() {
    return body.length;
  }

  public static Reply json(int status, String json) {
    return new Reply(status, List.of(), json.getBytes(StandardCharsets.UTF_8), Optional.empty());
  }

  /** A provider-style error: {@code {"error":{"code":...,"message":...}}}. */
  public static Reply error(int status, String code, String message) {
    return json(status, Json.error(code, message));
  }

  public Reply withHeader(String name, String value) {
    List<Map.Entry<String, String>> h = new ArrayList<>(headers);
    h.add(Map.entry(name, value));
    return new Reply(status, h, body, operationId);
  }

  public Reply withOperationId(String id) {
    return new Reply(status, headers, body, Optional.of(id)).withHeader("Operation-Id", id);
  }

  public String bodyText() {
    return new String(body, StandardCharsets.UTF_8);
  }
}
