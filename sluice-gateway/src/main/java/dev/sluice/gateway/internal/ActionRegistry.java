package dev.sluice.gateway.internal;

import dev.sluice.core.engine.Outcome;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedDeque;

/**
 * The gateway's in-memory record of the actions it accepted, so that {@code GET /v1/actions/{id}}
 * and {@code GET /v1/tasks/{id}} can answer. TO BE REPLACED by the journal
 * ({@code dev.sluice.core.journal}, issue 5), which keeps actions durably across restarts; until
 * then a restart forgets them. Bounded: once more than {@code capacity} actions are held, the
 * oldest finished ones are forgotten first.
 */
public final class ActionRegistry {
  /** One accepted action. {@code goal} is the agent's {@code Sluice-Task-Goal}, if any. */
  public record Entry(
      String id, String agent, String provider, String taskId, Optional<String> goal, String method, String path, Instant acceptedAt,
      CompletableFuture<Outcome> outcome) {}

  private final int capacity;
  private final Map<String, Entry> byId = new ConcurrentHashMap<>();
  private final ConcurrentLinkedDeque<String> order = new ConcurrentLinkedDeque<>();

  public ActionRegistry(int capacity) {
    if (capacity < 1) {
      throw new IllegalArgumentException("capacity must be at least 1, got " + capacity);
    }
    this.capacity = capacity;
  }

  /** A fresh action id: {@code act_} and 32 hex digits, unguessable (it is the key of GET /v1/actions). */
  public static String newId() {
    return "act_" + UUID.randomUUID().toString().replace("-", "");
  }

  public Entry add(Entry e) {
    byId.put(e.id(), e);
    order.addLast(e.id());
    evict();
    return e;
  }

  public Optional<Entry> get(String id) {
    return Optional.ofNullable(byId.get(id));
  }

  /** The actions of a task, oldest first. */
  public List<Entry> ofTask(String taskId) {
    List<Entry> out = new ArrayList<>();
    for (String id : order) {
      Entry e = byId.get(id);
      if (e != null && e.taskId().equals(taskId)) {
        out.add(e);
      }
    }
    return out;
  }

  private void evict() {
    int excess = byId.size() - capacity;
    for (Iterator<String> it = order.iterator(); excess > 0 && it.hasNext();) {
      String id = it.next();
      Entry e = byId.get(id);
      if (e == null || e.outcome().isDone()) {
        it.remove();
        byId.remove(id);
        excess--;
      }
    }
  }
}
