package dev.sluice.gateway.internal;

import dev.sluice.core.engine.Outcome;
import dev.sluice.core.journal.ActionId;
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
 * The gateway's in-memory view of the actions of this process — submitted here, or resumed from
 * the journal at start — with their outcome futures, so that a completed action can be answered
 * with the provider's response (body included) and a pending one long-polled. The durable record
 * is the journal's: a journaled action's id is its {@link ActionId}, and once it is forgotten here
 * (a restart, or eviction) {@code GET /v1/actions/{id}} answers from the journal record, without
 * the body. Unjournaled actions (coalescible reads of immutable resources, or a gateway without a
 * journal) have ids of their own ({@code mem_…}) that live only here.
 *
 * <p>Bounded: once more than {@code capacity} actions are held, the oldest finished ones are
 * forgotten first.
 */
public final class ActionRegistry {
  /**
   * One action. {@code task} is the agent's own task name (not the namespaced one); {@code goal} is
   * its {@code Sluice-Task-Goal}, if any; {@code path} is the provider path without the query.
   */
  public record Entry(
      String id, Optional<ActionId> journalId, String agent, String provider, String task, Optional<String> goal, String method, String path,
      Instant acceptedAt, CompletableFuture<Outcome> outcome) {}

  private final int capacity;
  private final Map<String, Entry> byId = new ConcurrentHashMap<>();
  private final ConcurrentLinkedDeque<String> order = new ConcurrentLinkedDeque<>();

  public ActionRegistry(int capacity) {
    if (capacity < 1) {
      throw new IllegalArgumentException("capacity must be at least 1, got " + capacity);
    }
    this.capacity = capacity;
  }

  /** An id for an action the journal does not hold: {@code mem_} and 32 hex digits, unguessable. */
  public static String newMemoryId() {
    return "mem_" + UUID.randomUUID().toString().replace("-", "");
  }

  public Entry add(Entry e) {
    if (byId.putIfAbsent(e.id(), e) == null) {
      order.addLast(e.id());
      evict();
    }
    return e;
  }

  public Optional<Entry> get(String id) {
    return Optional.ofNullable(byId.get(id));
  }

  /** The actions of an agent's task, oldest first; {@code agent} empty: every agent's task of that name. */
  public List<Entry> ofTask(Optional<String> agent, String task) {
    List<Entry> out = new ArrayList<>();
    for (String id : order) {
      Entry e = byId.get(id);
      if (e != null && e.task().equals(task) && (agent.isEmpty() || e.agent().equals(agent.get()))) {
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
