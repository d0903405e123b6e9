package dev.sluice.core.internal;

import dev.sluice.core.engine.ActionLog;
import dev.sluice.core.engine.OutcomeCode;
import dev.sluice.core.http.Headers;
import dev.sluice.core.journal.ActionChanges;
import dev.sluice.core.journal.ActionId;
import dev.sluice.core.journal.ActionRecord;
import dev.sluice.core.journal.ActionState;
import dev.sluice.core.journal.AttemptEnd;
import dev.sluice.core.journal.AttemptKind;
import dev.sluice.core.journal.Journal;
import dev.sluice.core.journal.NewAction;
import dev.sluice.core.journal.TaskCancellation;
import dev.sluice.core.journal.TransitionResult;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the journal in step with the engine, off the engine's lock. Every change is queued, in the
 * order the engine made it (it queues under its lock), and committed by one thread, so a journal
 * commit and its fsync never hold up the engine, and the transitions of one action reach the
 * journal in order. It knows the state it left each action in, and walks the journal's state
 * machine the shortest legal way to the state the engine reports (e.g. in_flight → outcome_unknown
 * → reconciling). A change that would leave an action with an attempt still open waits for the
 * attempt's end.
 *
 * <p>{@link #record} is the exception: it commits on the caller's thread, because a write must be
 * durable before {@code Engine.submit} can send it.
 */
public final class JournalWriter implements ActionLog, AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(JournalWriter.class);

  private final Journal journal;
  private final Supplier<Instant> clock;
  private final ExecutorService thread = Executors.newSingleThreadExecutor(r -> {
    Thread t = new Thread(r, "sluice-journal");
    t.setDaemon(true);
    return t;
  });
  /** The state this process left each open action in. */
  private final Map<ActionId, ActionState> states = new ConcurrentHashMap<>();
  /** Writer thread only: the open attempt of each action, and the changes waiting for its end. */
  private final Map<ActionId, Integer> openAttempts = new HashMap<>();
  private final Map<ActionId, List<Runnable>> afterAttempt = new HashMap<>();
  private volatile boolean stopped;
  /** Raises escalations as actions stop; set once at start (null: none, e.g. no journal-backed Sluice). */
  private volatile Escalations escalations;

  public JournalWriter(Journal journal, Supplier<Instant> clock) {
    this.journal = journal;
    this.clock = clock;
  }

  public Journal journal() {
    return journal;
  }

  /** Escalates the actions that stop for a person (set once, before any action runs). */
  public void escalations(Escalations e) {
    this.escalations = e;
  }

  /**
   * Moves an action for an operator's decision, on the writer's thread in order with the engine's
   * changes, from the state this writer knows to {@code to}.
   *
   * @return the row after the move; fails when the journal refuses it
   */
  public CompletableFuture<ActionRecord> decide(ActionId id, ActionState from, ActionState to, ActionChanges changes) {
    return call(() -> {
      ActionState now = state(id);
      if (now != from) {
        throw new IllegalStateException("action " + id + " is " + now.code() + ", not " + from.code() + "; the decision was not applied");
      }
      step(id, from, to, changes);
      return journal.action(id).orElseThrow();
    });
  }

  /** Records a new action, durably for a write, on the caller's thread. */
  public ActionRecord record(NewAction action) {
    ActionRecord r = journal.recordAction(action);
    states.put(r.actionId(), r.state());
    return r;
  }

  /** Tells the writer the state of an action recovered at start. */
  public void seed(ActionId id, ActionState state) {
    states.put(id, state);
  }

  /** Completes when every change queued before it is committed (or the writer stopped). */
  public CompletableFuture<Void> barrier() {
    CompletableFuture<Void> done = new CompletableFuture<>();
    if (!post(() -> done.complete(null))) {
      done.complete(null);
    }
    return done;
  }

  /** Runs {@code work} on the writer's thread, after everything queued before it. */
  public <T> CompletableFuture<T> call(Callable<T> work) {
    CompletableFuture<T> f = new CompletableFuture<>();
    boolean queued = post(() -> {
      try {
        f.complete(work.call());
      } catch (Exception e) {
        f.completeExceptionally(e);
      }
    });
    if (!queued) {
      f.completeExceptionally(new IllegalStateException("the journal writer has stopped"));
    }
    return f;
  }

  /** Cancels the task durably, in order with the engine's changes. */
  public CompletableFuture<TaskCancellation> cancelTask(String taskId) {
    return call(() -> {
      TaskCancellation c = journal.cancelTask(taskId, clock.get());
      c.cancelledActions().forEach(id -> states.put(id, ActionState.CANCELLED));
      return c;
    });
  }

  // ---------------------------------------------------------------- attempts (writer thread)

  /**
   * Moves the action to in_flight (a send) or checks it is reconciling (a look-up) and records the
   * attempt's start; returns its number. Throws when the attempt must not be sent.
   */
  int startAttempt(ActionId id, boolean lookup, Optional<String> key) {
    ActionState st = state(id);
    if (st.terminal()) {
      throw new IllegalStateException("action " + id + " is " + st.code() + " in the journal; nothing more is sent for it");
    }
    if (lookup) {
      move(id, ActionState.RECONCILING, ActionChanges.none(), OutcomeCode.RECONCILIATION_REQUIRED);
    } else if (st != ActionState.IN_FLIGHT) {
      step(id, st, ActionState.IN_FLIGHT, ActionChanges.none());
    }
    int n = journal.startAttempt(id, lookup ? AttemptKind.LOOKUP : AttemptKind.SEND, clock.get(), lookup ? Optional.empty() : key).number();
    openAttempts.put(id, n);
    return n;
  }

  void finishAttempt(ActionId id, int number, AttemptEnd end, Headers headers) {
    try {
      journal.finishAttempt(id, number, end, clock.get(), headers);
    } catch (RuntimeException e) {
      LOG.error("could not journal the end of attempt {} of action {}: {}", number, id, e.toString());
    }
    openAttempts.remove(id);
    Escalations esc = escalations;
    if (esc != null && end instanceof AttemptEnd.Response resp && resp.status() == 429) {
      try {
        esc.rateLimited(id, clock.get());
      } catch (RuntimeException e) {
        LOG.warn("could not count a 429 of action {} for escalation: {}", id, e.toString());
      }
    }
    List<Runnable> waiting = afterAttempt.remove(id);
    if (waiting != null) {
      waiting.forEach(Runnable::run);
    }
  }

  /** Queues work on the writer's thread; false when the writer has stopped. */
  boolean post(Runnable work) {
    if (stopped) {
      return false;
    }
    try {
      thread.execute(() -> {
        if (stopped) {
          return;
        }
        try {
          work.run();
        } catch (RuntimeException e) {
          LOG.error("journal update failed: {}", e.toString());
        }
      });
      return true;
    } catch (RejectedExecutionException e) {
      return false;
    }
  }

  // ---------------------------------------------------------------- ActionLog (engine lock held: queue only)

  @Override
  public void waiting(ActionId id, Instant dueAt, Duration waited) {
    post(() -> {
      ActionState to = dueAt.isAfter(clock.get()) ? ActionState.DELAYED : ActionState.QUEUED;
      move(id, to, ActionChanges.none().dueAt(dueAt).waited(waited), OutcomeCode.RECONCILIATION_REQUIRED);
    });
  }

  @Override
  public void reconciling(ActionId id, Instant dueAt, Duration waited) {
    post(() -> move(id, ActionState.RECONCILING, ActionChanges.none().dueAt(dueAt).waited(waited), OutcomeCode.RECONCILIATION_REQUIRED));
  }

  @Override
  public void finished(ActionId id, OutcomeCode code, String reason, OptionalInt lastStatus, Duration waited, Optional<String> operationId) {
    post(() -> {
      ActionState to0 = switch (code) {
        case SUCCEEDED -> ActionState.SUCCEEDED;
        case CANCELLED -> ActionState.CANCELLED;
        case RECONCILIATION_REQUIRED -> ActionState.RECONCILIATION_REQUIRED;
        case ESCALATED -> ActionState.ESCALATED;
        default -> ActionState.FAILED;
      };
      ActionState to = to0;
      ActionChanges c = ActionChanges.none().waited(waited).reason(reason.length() > 2000 ? reason.substring(0, 2000) + "…" : reason);
      if (to == ActionState.FAILED) {
        c = c.outcome(code);
      }
      if (lastStatus.isPresent()) {
        c = c.lastStatus(lastStatus.getAsInt());
      }
      if (operationId.isPresent()) {
        c = c.providerOperationId(operationId.get());
      }
      Escalations esc = escalations;
      Optional<dev.sluice.core.escalation.Trigger> trigger = Optional.empty();
      if (esc != null && to == ActionState.FAILED) {
        trigger = esc.triggerFor(id, code, reason);
      }
      if (trigger.isPresent()) {
        // Stopped for a person, not failed: the escalated state keeps the operator's options open.
        c = ActionChanges.none().waited(waited).reason(c.reason().orElse(reason));
        if (lastStatus.isPresent()) {
          c = c.lastStatus(lastStatus.getAsInt());
        }
        if (operationId.isPresent()) {
          c = c.providerOperationId(operationId.get());
        }
        to = ActionState.ESCALATED;
      }
      ActionState target = to;
      ActionChanges changes = c;
      Optional<dev.sluice.core.escalation.Trigger> raised = trigger;
      Runnable work = () -> {
        move(id, target, changes, code);
        if (esc != null) {
          escalateAfterMove(esc, id, raised, changes.reason().orElse(reason));
        }
      };
      if (openAttempts.containsKey(id)) {
        afterAttempt.computeIfAbsent(id, k -> new ArrayList<>()).add(work);
      } else {
        work.run();
      }
    });
  }

  /** After an end was journaled: raise the escalation the state calls for (writer thread). */
  private void escalateAfterMove(Escalations esc, ActionId id, Optional<dev.sluice.core.escalation.Trigger> trigger, String reason) {
    ActionState now = state(id);
    if (now == ActionState.RECONCILIATION_REQUIRED && esc.escalatesUncertainWrites()) {
      step(id, now, ActionState.ESCALATED, ActionChanges.none().reason(reason));
      esc.raise(id, dev.sluice.core.escalation.Trigger.UNCERTAIN_WRITE, reason);
    } else if (now == ActionState.ESCALATED && trigger.isPresent()) {
      esc.raise(id, trigger.get(), reason);
    }
  }

  // ---------------------------------------------------------------- the state machine walk (writer thread)

  private ActionState state(ActionId id) {
    ActionState s = states.get(id);
    if (s == null) {
      s = journal.action(id).map(ActionRecord::state).orElseThrow(() -> new IllegalStateException("action " + id + " is not in the journal"));
      states.put(id, s);
    }
    return s;
  }

  private void move(ActionId id, ActionState to, ActionChanges changes, OutcomeCode code) {
    ActionState from = state(id);
    if (from.terminal() || (from == to && to != ActionState.DELAYED && to != ActionState.QUEUED && to != ActionState.RECONCILING)) {
      return;
    }
    if (openAttempts.containsKey(id) && from != to) {
      afterAttempt.computeIfAbsent(id, k -> new ArrayList<>()).add(() -> move(id, to, changes, code));
      return;
    }
    List<ActionState> path = path(from, to);
    try {
      for (int i = 0; i < path.size(); i++) {
        ActionState next = path.get(i);
        step(id, state(id), next, i == path.size() - 1 ? changes : ActionChanges.none());
      }
    } catch (RuntimeException e) {
      // The journal refused (e.g. a write whose last send had no answer cannot simply fail):
      // the one safe place left for an action whose outcome may be unknown.
      ActionState now = state(id);
      if (now == ActionState.IN_FLIGHT || now == ActionState.OUTCOME_UNKNOWN || now == ActionState.RECONCILING) {
        LOG.info("action {}: {} → {} refused ({}); recorded as reconciliation_required", id, now.code(), to.code(), e.getMessage());
        for (ActionState next : path(now, ActionState.RECONCILIATION_REQUIRED)) {
          step(id, state(id), next, next == ActionState.RECONCILIATION_REQUIRED
              ? ActionChanges.none().reason("stopped (" + code.code() + ") while the write's outcome was unknown") : ActionChanges.none());
        }
      } else {
        throw e;
      }
    }
  }

  private void step(ActionId id, ActionState from, ActionState to, ActionChanges changes) {
    TransitionResult r = journal.transition(id, from, to, changes, clock.get());
    states.put(id, r.action().state());
    if (!r.applied()) {
      throw new IllegalStateException("action " + id + " was " + r.action().state().code() + " in the journal, not " + from.code());
    }
    if (r.action().state().terminal()) {
      states.remove(id); // nothing more to track; a late report reads it from the journal
    }
  }

  /** The states to pass through from {@code from} to {@code to}, {@code to} last. */
  static List<ActionState> path(ActionState from, ActionState to) {
    if (from == to || from.canBecome(to)) {
      if (from == ActionState.IN_FLIGHT && (to == ActionState.QUEUED || to == ActionState.DELAYED)) {
        return List.of(to); // legal when the last send was answered; the journal checks
      }
      return List.of(to);
    }
    for (ActionState mid : ActionState.values()) {
      if (from.canBecome(mid) && mid.canBecome(to) && !mid.terminal()) {
        return preferUncertain(from, mid, to);
      }
    }
    for (ActionState a : ActionState.values()) {
      for (ActionState b : ActionState.values()) {
        if (from.canBecome(a) && a.canBecome(b) && b.canBecome(to) && !a.terminal() && !b.terminal()) {
          return List.of(a, b, to);
        }
      }
    }
    throw new IllegalStateException("no way from " + from.code() + " to " + to.code());
  }

  private static List<ActionState> preferUncertain(ActionState from, ActionState mid, ActionState to) {
    // From in_flight the way to reconciling or reconciliation_required is through outcome_unknown.
    if (from == ActionState.IN_FLIGHT && from.canBecome(ActionState.OUTCOME_UNKNOWN) && ActionState.OUTCOME_UNKNOWN.canBecome(to)) {
      return List.of(ActionState.OUTCOME_UNKNOWN, to);
    }
    return List.of(mid, to);
  }

  /** Stops: changes queued before this are committed; later ones are dropped (they are what a restart redoes). */
  @Override
  public void close() {
    CompletableFuture<Void> b = barrier();
    try {
      b.get(10, TimeUnit.SECONDS);
    } catch (Exception e) {
      LOG.warn("the journal writer did not drain in time: {}", e.toString());
    }
    stopped = true;
    thread.shutdownNow();
  }

  /** Stops at once, dropping whatever is queued: a simulated crash for tests. */
  public void halt() {
    stopped = true;
    thread.shutdownNow();
    try {
      // A dead process does nothing more: let a commit already under way finish before anyone
      // else (a new Sluice on the same journal) reads the journal.
      thread.awaitTermination(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
