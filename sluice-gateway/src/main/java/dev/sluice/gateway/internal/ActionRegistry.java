package dev.sluice.gateway.internal;

import dev.sluice.core.engine.Outcome;
import dev.sluice.core.journal.ActionId;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
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
 * <p>Bounded twice. Once more than {@code capacity} actions are held, the oldest finished ones are
 * forgotten first. And a provider response is kept only until it reaches the agent: the answer to
 * the waiting call drops it ({@link #delivered}), leaving the outcome context; responses not yet
 * delivered (the agent was answered 202 and will fetch the result) are kept up to {@code
 * keptBytesLimit} bytes of bodies and header fields in all, past which the oldest are dropped.
 * Without the second bound a busy gateway held the last 100,000 responses (up to 64 KiB each) for
 * nobody: its heap grew by the answered traffic, and every young collection copied it.
 */
public final class ActionRegistry {
  /**
   * One action. {@code task} is the agent's own task name (not the namespaced one); {@code goal} is
   * its {@code Sluice-Task-Goal}, if any; {@code path} is the provider path without the query.
   */
  public record Entry(
      String id, Optional<ActionId> journalId, String agent, String provider, String task, Optional<String> goal, String method, String path,
      Instant acceptedAt, CompletableFuture<Outcome> outcome, boolean responseKept) {
    public Entry {
      Objects.requireNonNull(id, "id");
      Objects.requireNonNull(outcome, "outcome");
    }

    /** A new action, its response (once it has one) kept. */
    public Entry(String id, Optional<ActionId> journalId, String agent, String provider, String task, Optional<String> goal, String method,
        String path, Instant acceptedAt, CompletableFuture<Outcome> outcome) {
      this(id, journalId, agent, provider, task, goal, method, path, acceptedAt, outcome, true);
    }

    /** This entry with its finished outcome's response dropped (status, attempts and context stay). */
    Entry withoutResponse() {
      Outcome o = outcome.join();
      Outcome slim = new Outcome(o.taskId(), o.actionId(), o.outcome(), o.requestSent(), o.responseReceived(), o.attempts(), o.waited(), o.lastStatus(),
          o.nextAllowedAt(), o.nextSafeAction(), o.reason(), Optional.empty(), o.fingerprint(), o.coalesced(), o.finishedAt(), o.reconciled());
      return new Entry(id, journalId, agent, provider, task, goal, method, path, acceptedAt, CompletableFuture.completedFuture(slim), false);
    }
  }

  /** Default bound on the bytes of responses kept for agents that have not fetched them yet. */
  public static final long DEFAULT_KEPT_BYTES = 32L * 1024 * 1024;

  private final int capacity;
  private final long keptBytesLimit;
  private final Map<String, Entry> byId = new ConcurrentHashMap<>();
  private final ConcurrentLinkedDeque<String> order = new ConcurrentLinkedDeque<>();
  private final LinkedHashMap<String, Long> keptSizes = new LinkedHashMap<>(); // guarded by this; oldest first
  private long keptBytes; // guarded by this

  public ActionRegistry(int capacity) {
    this(capacity, DEFAULT_KEPT_BYTES);
  }

  public ActionRegistry(int capacity, long keptBytesLimit) {
    if (capacity < 1) {
      throw new IllegalArgumentException("capacity must be at least 1, got " + capacity);
    }
    if (keptBytesLimit < 0) {
      throw new IllegalArgumentException("keptBytesLimit cannot be negative, got " + keptBytesLimit);
    }
    this.capacity = capacity;
    this.keptBytesLimit = keptBytesLimit;
  }

  /** An id for an action the journal does not hold: {@code mem_} and 32 hex digits, unguessable. */
  public static String newMemoryId() {
    return "mem_" + UUID.randomUUID().toString().replace("-", "");
  }

  public Entry add(Entry e) {
    if (byId.putIfAbsent(e.id(), e) == null) {
      order.addLast(e.id());
      evict();
      e.outcome().thenAccept(o -> finished(e.id(), o));
    }
    return e;
  }

  /**
   * The action's answer reached its agent (the waiting call was answered with it): its response
   * is not kept any longer. {@code GET /v1/actions/{id}} then answers the outcome's context.
   */
  public synchronized void delivered(String id) {
    drop(id);
  }

  /** Bytes of responses kept now (bodies and header fields), for tests and metrics. */
  public synchronized long keptBytes() {
    return keptBytes;
  }

  private synchronized void finished(String id, Outcome o) {
    Entry e = byId.get(id);
    if (e == null || !e.responseKept() || o.response().isEmpty()) {
      return; // forgotten, already delivered, or nothing to keep
    }
    long size = size(o.response().get());
    keptSizes.put(id, size);
    keptBytes += size;
    while (keptBytes > keptBytesLimit && !keptSizes.isEmpty()) {
      drop(keptSizes.keySet().iterator().next()); // the oldest kept response goes first (it may be this one)
    }
  }

  private void drop(String id) {
    Long size = keptSizes.remove(id);
    if (size != null) {
      keptBytes -= size;
    }
    slim(id);
  }

  private void slim(String id) {
    byId.computeIfPresent(id, (k, e) -> e.responseKept() && e.outcome().isDone() && !e.outcome().isCompletedExceptionally()
        && e.outcome().join().response().isPresent() ? e.withoutResponse() : e);
  }

  private static long size(dev.sluice.core.classify.AttemptResult.Response r) {
    long n = r.bodyPrefix().length;
    for (Map.Entry<String, List<String>> f : r.headers().asMap().entrySet()) {
      for (String v : f.getValue()) {
        n += f.getKey().length() + v.length() + 4;
      }
    }
    return n;
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
        synchronized (this) {
          Long size = keptSizes.remove(id);
          if (size != null) {
            keptBytes -= size;
          }
        }
        excess--;
      }
    }
  }
}
