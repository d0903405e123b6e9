package dev.sluice.fake.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.fake.Operation;
import dev.sluice.fake.RouteFamily;
import dev.sluice.fake.StoredRecord;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The provider's data: record collections, the balance and the operation log. Every successful
 * write makes one {@link Operation} whose id the reply carries in {@code Operation-Id}. Thread-safe
 * (one lock: the fake favours being obviously right over throughput).
 */
public final class ResourceStore {

  private static final String SEED_SCOPE = "seed";
  private static final int SEEDED_INVOICES = 3;

  private final ReentrantLock lock = new ReentrantLock();
  private final Map<String, RouteFamily> families;
  private final long initialBalance;
  private final Map<String, LinkedHashMap<String, Item>> items = new HashMap<>();
  private final Map<String, Long> counters = new HashMap<>();
  private final List<Item> creationOrder = new ArrayList<>();
  private final LinkedHashMap<String, Operation> operations = new LinkedHashMap<>();
  private long operationCounter;
  private long balance;

  public ResourceStore(Map<String, RouteFamily> families, long initialBalance, Instant now) {
    this.families = Map.copyOf(families);
    this.initialBalance = initialBalance;
    reset(now);
  }

  private static final class Item {
    final String id;
    final String family;
    final Optional<String> operationId;
    final Instant createdAt;
    final String scope;
    final Optional<String> key;
    Instant updatedAt;
    ObjectNode json;
    boolean deleted;

    Item(String id, String family, Optional<String> operationId, Instant createdAt, String scope,
        Optional<String> key, ObjectNode json) {
      this.id = id;
      this.family = family;
      this.operationId = operationId;
      this.createdAt = createdAt;
      this.updatedAt = createdAt;
      this.scope = scope;
      this.key = key;
      this.json = json;
    }

    StoredRecord snapshot() {
      JsonNode ref = json.get("client_reference");
      Optional<String> clientRef = ref == null || ref.isNull() ? Optional.empty() : Optional.of(ref.asText());
      return new StoredRecord(id, family, operationId, createdAt, updatedAt, scope, key, clientRef, Json.write(json), deleted);
    }
  }

  /** Empties the store, restores the initial balance and re-seeds the invoices. */
  public void reset(Instant now) {
    lock.lock();
    try {
      items.clear();
      creationOrder.clear();
      counters.clear();
      operations.clear();
      operationCounter = 0;
      balance = initialBalance;
      RouteFamily invoices = families.get("invoices");
      if (invoices != null && invoices.kind() == RouteFamily.Kind.COLLECTION) {
        for (int i = 1; i <= SEEDED_INVOICES; i++) {
          ObjectNode body = Json.object();
          body.put("amount_due", 1000L * i);
          body.put("currency", "usd");
          body.put("status", "open");
          insert(invoices, body, now, SEED_SCOPE, Optional.empty(), Optional.empty());
        }
      }
    } finally {
      lock.unlock();
    }
  }

  /** Answers one request. */
  public Reply handle(ResourceCall c) {
    lock.lock();
    try {
      return switch (c.family().kind()) {
        case COLLECTION -> collection(c);
        case BALANCE -> balance(c);
        case OPERATIONS -> operations(c);
      };
    } finally {
      lock.unlock();
    }
  }

  private Reply collection(ResourceCall c) {
    RouteFamily f = c.family();
    boolean read = c.method().equals("GET") || c.method().equals("HEAD");
    if (c.itemId().isEmpty()) {
      if (read) {
        return list(c);
      }
      if (c.method().equals("POST")) {
        return create(c);
      }
      return notAllowed("GET, HEAD, POST");
    }
    Item item = items.getOrDefault(f.name(), new LinkedHashMap<>()).get(c.itemId().get());
    String allow = f.mutable() ? "GET, HEAD, PUT, PATCH, DELETE" : "GET, HEAD";
    if (read) {
      return item == null || item.deleted ? notFound(c) : Reply.json(200, Json.write(item.json));
    }
    if (!f.mutable() || !(c.method().equals("PUT") || c.method().equals("PATCH") || c.method().equals("DELETE"))) {
      return notAllowed(allow);
    }
    if (item == null || item.deleted) {
      return notFound(c);
    }
    if (c.method().equals("DELETE")) {
      item.deleted = true;
      item.updatedAt = c.now();
      ObjectNode gone = Json.object();
      gone.put("id", item.id);
      gone.put("object", objectName(f));
      gone.put("deleted", true);
      return written(c, item.id, Reply.json(200, Json.write(gone)));
    }
    Optional<ObjectNode> body = jsonObject(c.body());
    if (body.isEmpty()) {
      return Reply.error(400, "invalid_request", "the body must be a JSON object");
    }
    ObjectNode next = c.method().equals("PUT") ? Json.object() : item.json.deepCopy();
    body.get().properties().forEach(e -> next.set(e.getKey(), e.getValue()));
    stamp(next, item.id, f, item.createdAt);
    next.put("updated_at", TimeFormats.rfc3339(c.now()));
    item.json = next;
    item.updatedAt = c.now();
    return written(c, item.id, Reply.json(200, Json.write(next)));
  }

  private Reply create(ResourceCall c) {
    RouteFamily f = c.family();
    Optional<ObjectNode> body = c.body().length == 0 ? Optional.of(Json.object()) : jsonObject(c.body());
    if (body.isEmpty()) {
      return Reply.error(400, "invalid_request", "the body must be a JSON object");
    }
    long amount = 0;
    if (f.debitsBalance()) {
      JsonNode a = body.get().get("amount");
      if (a == null || !a.canConvertToLong() || !a.isIntegralNumber()) {
        return Reply.error(400, "parameter_missing", "amount: an integer amount is required");
      }
      amount = a.asLong();
    }
    String opId = nextOperationId();
    Item item = insert(f, body.get(), c.now(), c.scope(), c.idempotencyKey(), Optional.of(opId));
    balance -= amount;
    Reply r = Reply.json(201, Json.write(item.json)).withHeader("Location", f.path() + "/" + item.id);
    return record(c, opId, item.id, r);
  }

  private Item insert(RouteFamily f, ObjectNode body, Instant now, String scope, Optional<String> key, Optional<String> opId) {
    long n = counters.merge(f.name(), 1L, Long::sum);
    String id = f.idPrefix() + n;
    ObjectNode json = body.deepCopy();
    stamp(json, id, f, now);
    Item item = new Item(id, f.name(), opId, now, scope, key, json);
    items.computeIfAbsent(f.name(), k -> new LinkedHashMap<>()).put(id, item);
    creationOrder.add(item);
    return item;
  }

  private static void stamp(ObjectNode json, String id, RouteFamily f, Instant createdAt) {
    // The provider's own fields win over anything the client put in the body.
    json.put("id", id);
    json.put("object", objectName(f));
    json.put("created_at", TimeFormats.rfc3339(createdAt));
  }

  private Reply list(ResourceCall c) {
    ArrayNode data = Json.array();
    for (Item item : items.getOrDefault(c.family().name(), new LinkedHashMap<>()).values()) {
      if (!item.deleted && matches(item, c.query())) {
        data.add(item.json);
      }
    }
    return listReply(data);
  }

  private static boolean matches(Item item, Map<String, String> query) {
    for (Map.Entry<String, String> q : query.entrySet()) {
      if (q.getKey().equals("limit")) {
        continue;
      }
      if (q.getKey().equals("idempotency_key")) {
        if (!item.key.map(q.getValue()::equals).orElse(false)) {
          return false;
        }
        continue;
      }
      JsonNode v = item.json.get(q.getKey());
      if (v == null || v.isContainerNode() || !v.asText().equals(q.getValue())) {
        return false;
      }
    }
    return true;
  }

  private Reply balance(ResourceCall c) {
    if (c.itemId().isPresent()) {
      return notFound(c);
    }
    if (c.method().equals("GET") || c.method().equals("HEAD")) {
      return Reply.json(200, Json.write(balanceView()));
    }
    if (!c.method().equals("POST")) {
      return notAllowed("GET, HEAD, POST");
    }
    JsonNode amount = jsonObject(c.body()).map(b -> b.get("amount")).orElse(null);
    if (amount == null || !amount.isIntegralNumber() || !amount.canConvertToLong()) {
      return Reply.error(400, "parameter_missing", "amount: an integer amount (positive or negative) is required");
    }
    balance += amount.asLong();
    return record(c, nextOperationId(), "balance", Reply.json(200, Json.write(balanceView())));
  }

  private ObjectNode balanceView() {
    ObjectNode b = Json.object();
    b.put("object", "balance");
    b.put("available", balance);
    b.put("currency", "usd");
    return b;
  }

  private Reply operations(ResourceCall c) {
    if (!c.method().equals("GET") && !c.method().equals("HEAD")) {
      return notAllowed("GET, HEAD");
    }
    if (c.itemId().isPresent()) {
      Operation op = operations.get(c.itemId().get());
      return op == null ? notFound(c) : Reply.json(200, Json.write(Json.operation(op)));
    }
    ArrayNode data = Json.array();
    for (Operation op : operations.values()) {
      String key = c.query().get("idempotency_key");
      String res = c.query().get("resource_id");
      if ((key == null || op.idempotencyKey().map(key::equals).orElse(false))
          && (res == null || op.resourceId().equals(res))) {
        data.add(Json.operation(op));
      }
    }
    return listReply(data);
  }

  private Reply written(ResourceCall c, String resourceId, Reply r) {
    return record(c, nextOperationId(), resourceId, r);
  }

  private Reply record(ResourceCall c, String opId, String resourceId, Reply r) {
    operations.put(opId, new Operation(opId, c.method(), c.path(), c.family().name(), resourceId, r.status(), c.now(),
        c.scope(), c.idempotencyKey()));
    return r.withOperationId(opId);
  }

  private String nextOperationId() {
    return "op_" + (++operationCounter);
  }

  private static Reply listReply(ArrayNode data) {
    ObjectNode list = Json.object();
    list.put("object", "list");
    list.set("data", data);
    list.put("has_more", false);
    return Reply.json(200, Json.write(list));
  }

  private static Reply notFound(ResourceCall c) {
    return Reply.error(404, "resource_missing", "no such resource: " + c.path());
  }

  private static Reply notAllowed(String allow) {
    return Reply.error(405, "method_not_allowed", "allowed: " + allow).withHeader("Allow", allow);
  }

  private static Optional<ObjectNode> jsonObject(byte[] body) {
    return Json.parse(body).filter(JsonNode::isObject).map(ObjectNode.class::cast);
  }

  private static String objectName(RouteFamily f) {
    String n = f.name();
    return n.endsWith("s") && n.length() > 1 ? n.substring(0, n.length() - 1) : n;
  }

  public List<StoredRecord> records() {
    lock.lock();
    try {
      return creationOrder.stream().map(Item::snapshot).toList();
    } finally {
      lock.unlock();
    }
  }

  public List<Operation> operations() {
    lock.lock();
    try {
      return List.copyOf(operations.values());
    } finally {
      lock.unlock();
    }
  }

  public long balance() {
    lock.lock();
    try {
      return balance;
    } finally {
      lock.unlock();
    }
  }
}
