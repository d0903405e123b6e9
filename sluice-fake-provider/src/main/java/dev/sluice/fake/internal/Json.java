package dev.sluice.fake.internal;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.fake.Attempt;
import dev.sluice.fake.Fault;
import dev.sluice.fake.FaultRule;
import dev.sluice.fake.Operation;
import dev.sluice.fake.StoredRecord;
import java.util.Collection;
import java.util.Optional;

/** JSON shapes of the fake: errors, and the inspection API's views of attempts, records and rules. */
public final class Json {

  public static final ObjectMapper MAPPER = new ObjectMapper();

  private Json() {}

  public static ObjectNode object() {
    return MAPPER.createObjectNode();
  }

  public static ArrayNode array() {
    return MAPPER.createArrayNode();
  }

  public static String write(JsonNode node) {
    try {
      return MAPPER.writeValueAsString(node);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("a JsonNode always serializes", e);
    }
  }

  /** Parses JSON, or empty for anything that is not (never throws). */
  public static Optional<JsonNode> parse(byte[] bytes) {
    if (bytes.length == 0) {
      return Optional.empty();
    }
    try {
      return Optional.ofNullable(MAPPER.readTree(bytes));
    } catch (java.io.IOException e) {
      return Optional.empty();
    }
  }

  public static String error(String code, String message) {
    ObjectNode root = object();
    ObjectNode err = root.putObject("error");
    err.put("code", code);
    err.put("message", message);
    return write(root);
  }

  static void putOpt(ObjectNode n, String field, Optional<String> v) {
    if (v.isPresent()) {
      n.put(field, v.get());
    } else {
      n.putNull(field);
    }
  }

  public static ObjectNode attempt(Attempt a) {
    ObjectNode n = object();
    n.put("seq", a.seq());
    n.put("arrived_at", TimeFormats.rfc3339(a.arrivedAt()));
    n.put("method", a.method());
    n.put("path", a.path());
    n.put("query", a.query());
    n.put("family", a.family());
    n.put("scope", a.scope());
    putOpt(n, "idempotency_key", a.idempotencyKey());
    putOpt(n, "task", a.task());
    n.put("status", a.status());
    n.put("result", a.result().configName());
    ArrayNode f = n.putArray("faults");
    a.faults().forEach(f::add);
    putOpt(n, "operation_id", a.operationId());
    n.put("replayed", a.replayed());
    return n;
  }

  public static ObjectNode record(StoredRecord r) {
    ObjectNode n = object();
    n.put("id", r.id());
    n.put("family", r.family());
    putOpt(n, "operation_id", r.operationId());
    n.put("created_at", TimeFormats.rfc3339(r.createdAt()));
    n.put("updated_at", TimeFormats.rfc3339(r.updatedAt()));
    n.put("scope", r.scope());
    putOpt(n, "idempotency_key", r.idempotencyKey());
    putOpt(n, "client_reference", r.clientReference());
    n.put("deleted", r.deleted());
    n.set("body", parse(r.json().getBytes(java.nio.charset.StandardCharsets.UTF_8)).orElse(object()));
    return n;
  }

  public static ObjectNode operation(Operation o) {
    ObjectNode n = object();
    n.put("id", o.id());
    n.put("object", "operation");
    n.put("status", o.status() < 300 ? "succeeded" : "failed");
    n.put("http_status", o.status());
    n.put("method", o.method());
    n.put("path", o.path());
    n.put("family", o.family());
    n.put("resource_id", o.resourceId());
    n.put("created_at", TimeFormats.rfc3339(o.at()));
    putOpt(n, "idempotency_key", o.idempotencyKey());
    return n;
  }

  public static ObjectNode rule(FaultRule r, long matched) {
    ObjectNode n = object();
    Fault f = r.fault();
    n.put("kind", f.kind().configName());
    putOpt(n, "method", r.method());
    putOpt(n, "path", r.path());
    putOpt(n, "family", r.family());
    putOpt(n, "scope", r.scope());
    n.put("nth", r.nth());
    if (r.times() == Long.MAX_VALUE) {
      n.put("times", "all");
    } else {
      n.put("times", r.times());
    }
    if (!f.delay().isZero()) {
      n.put("delay_ms", f.delay().toMillis());
    }
    if (f.status() != 0) {
      n.put("status", f.status());
    }
    f.retryAfterSeconds().ifPresent(s -> n.put("retry_after_seconds", s));
    if (f.bytes() != 0) {
      n.put("bytes", f.bytes());
    }
    n.put("matched", matched);
    return n;
  }

  public static <T> ArrayNode arrayOf(Collection<T> items, java.util.function.Function<T, ? extends JsonNode> view) {
    ArrayNode a = array();
    items.forEach(i -> a.add(view.apply(i)));
    return a;
  }
}
