package dev.sluice.mcp.internal;

import dev.sluice.core.engine.Outcome;
import dev.sluice.core.journal.ActionId;
import java.time.Instant;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;

/**
 * The actions this MCP server started, by the id the model was given, so that {@code action_status}
 * can answer with the full outcome (the provider's response is not journaled) and only to the agent
 * that started the action.
 *
 * <p>Ids: a journaled action is named by its journal id (it outlives this process: {@code
 * action_status} still finds its durable state after a restart); an action Sluice does not journal
 * (a coalescible read of an immutable resource, or Sluice without a journal) gets an in-memory id
 * {@code mem-<uuid>}, valid while this server runs. Bounded: past the capacity, the oldest finished
 * entries are forgotten first.
 */
public final class ActionBook {
  /**
   * One action as started through MCP.
   *
   * @param taskId the engine's task id ({@code agent/task}, see {@code TaskNames})
   * @param taskName the agent's own name of the task, as the model gave it
   */
  public record Entry(String id, String agent, String provider, String taskId, String taskName, Optional<String> goal, String method, String target,
      Optional<ActionId> journalId, Instant acceptedAt, CompletableFuture<Outcome> outcome) {
    /** The same action with a new outcome future (an operator's decision ran it again). */
    public Entry withOutcome(CompletableFuture<Outcome> f) {
      return new Entry(id, agent, provider, taskId, taskName, goal, method, target, journalId, acceptedAt, f);
    }
  }

  private final int capacity;
  private final LinkedHashMap<String, Entry> entries = new LinkedHashMap<>();

  public ActionBook(int capacity) {
    this.capacity = capacity;
  }

  /** The id to give the model: the journal's, else a fresh in-memory one. */
  public static String idFor(Optional<ActionId> journalId) {
    return journalId.map(ActionId::value).orElseGet(() -> "mem-" + UUID.randomUUID());
  }

  public synchronized void add(Entry e) {
    entries.put(e.id(), e);
    if (entries.size() > capacity) {
      Iterator<Entry> it = entries.values().iterator();
      while (entries.size() > capacity && it.hasNext()) {
        if (it.next().outcome().isDone()) {
          it.remove();
        }
      }
    }
  }

  /** The entry of this id, if this agent started it. */
  public synchronized Optional<Entry> get(String id, String agent) {
    return Optional.ofNullable(entries.get(id)).filter(e -> e.agent().equals(agent));
  }
}
