package dev.sluice.core.internal;

import dev.sluice.core.audit.AuditLog;
import dev.sluice.core.classify.AttemptResult;
import dev.sluice.core.engine.ActionLog;
import dev.sluice.core.engine.ActionRequest;
import dev.sluice.core.engine.AttemptRequest;
import dev.sluice.core.engine.OutcomeCode;
import dev.sluice.core.journal.ActionId;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns the engine's and the transport's steps into audit events (DESIGN.md §3 rule 13), in the
 * order they happen: {@code action_requested} at submit, {@code action_sent} just before an
 * attempt's bytes leave, {@code action_result} when its answer arrives, then the engine's reaction
 * ({@code retry_scheduled}, {@code reconciliation_required}, {@code cancelled}, {@code
 * circuit_opened}, …). {@code escalated} is written once per escalation, by the escalation itself
 * (internal.Escalations: its id, trigger and options), never by an action's end, so one escalation
 * is one {@code escalated} record; an action that stops with its outcome unknown ends with {@code
 * reconciliation_required} (field {@code outcome}), whether or not a person is then asked. It is an {@link ActionLog} decorator around the journal writer, so
 * it is called under the engine's lock: it never blocks there — records are appended (with their
 * fsync) by one thread of its own, in the order they were queued.
 *
 * <p>Only metadata is recorded: task, action (journal id), attempt, idempotency key, method,
 * route template, status, Retry-After, scope, due time and wait figures. Never a header value
 * other than Retry-After, never a body, never a credential.
 *
 * <p>The {@code action_result} of a journaled action is held back until the engine's next report
 * on that action, so that the provider's operation id the engine extracts (when the route names
 * {@code operation_id}) can be recorded on the result as {@code provider_id}.
 */
public final class AuditTrail implements ActionLog, AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(AuditTrail.class);

  private final AuditLog log;
  private final ActionLog inner;
  private final Supplier<Instant> clock;
  private final ExecutorService thread = Executors.newSingleThreadExecutor(r -> {
    Thread t = new Thread(r, "sluice-audit");
    t.setDaemon(true);
    return t;
  });
  /** Guarded by this: per journaled action, its task, last attempt number and held-back result. */
  private final Map<ActionId, Track> tracks = new HashMap<>();

  private static final class Track {
    String task;
    int attempt;
    Instant resultAt;
    Map<String, Object> result;
  }

  public AuditTrail(AuditLog log, ActionLog inner, Supplier<Instant> clock) {
    this.log = log;
    this.inner = inner;
    this.clock = clock;
  }

  /** The call was accepted and (when journaled) recorded: {@code action_requested}. */
  public synchronized void requested(ActionRequest action, Instant at) {
    Map<String, Object> f = new LinkedHashMap<>();
    f.put("task", action.taskId());
    action.journalId().ifPresent(id -> {
      f.put("action", id.toString());
      track(id).task = action.taskId();
    });
    f.put("method", action.method());
    f.put("route", action.routeTemplate());
    f.put("scope", action.scope().scope());
    action.idempotencyKey().ifPresent(k -> f.put("idempotency", k));
    emit("action_requested", at, f);
  }

  /** An attempt is about to leave: {@code action_sent} (a look-up: {@code reconciliation_lookup_sent}). */
  public synchronized void sent(AttemptRequest attempt, Instant at) {
    Map<String, Object> f = base(attempt);
    attempt.journalId().ifPresent(id -> {
      flush(id, Optional.empty());
      Track t = track(id);
      t.task = attempt.taskId();
      t.attempt = attempt.attempt();
    });
    f.put("attempt", attempt.attempt());
    attempt.idempotencyKey().ifPresent(k -> f.put("idempotency", k));
    emit(attempt.lookup() ? "reconciliation_lookup_sent" : "action_sent", at, f);
  }

  /** An attempt's answer (or failure) arrived: {@code action_result}. */
  public synchronized void result(AttemptRequest attempt, AttemptResult r, Instant at) {
    Map<String, Object> f = base(attempt);
    f.put("attempt", attempt.attempt());
    if (r instanceof AttemptResult.Response resp) {
      f.put("status", resp.status());
      resp.headers().first("Retry-After").map(String::strip).ifPresent(v -> {
        f.put("retry_after", v.matches("\\d{1,9}") ? (Object) Long.parseLong(v) : v.length() <= 64 ? v : "unparsed");
        f.put("scope", attempt.scope().scope());
      });
    } else if (r instanceof AttemptResult.Failure fail) {
      f.put("failure", fail.kind().name().toLowerCase(java.util.Locale.ROOT));
    }
    if (attempt.journalId().isPresent()) {
      Track t = track(attempt.journalId().get());
      flush(attempt.journalId().get(), Optional.empty());
      t.result = f;
      t.resultAt = at;
    } else {
      emit("action_result", at, f);
    }
  }

  @Override
  public void waiting(ActionId id, Instant dueAt, Duration waited) {
    inner.waiting(id, dueAt, waited);
    synchronized (this) {
      flush(id, Optional.empty());
      Track t = track(id);
      Instant now = clock.get();
      Map<String, Object> f = new LinkedHashMap<>();
      put(f, "task", t.task);
      f.put("action", id.toString());
      f.put("attempt", t.attempt + 1);
      f.put("due", dueAt.toString());
      f.put("budget_wait", Math.max(0, Duration.between(now, dueAt).toSeconds()));
      f.put("waited_seconds", waited.toSeconds());
      emit("retry_scheduled", now, f);
    }
  }

  @Override
  public void reconciling(ActionId id, Instant dueAt, Duration waited) {
    inner.reconciling(id, dueAt, waited);
    synchronized (this) {
      flush(id, Optional.empty());
      Track t = track(id);
      Map<String, Object> f = new LinkedHashMap<>();
      put(f, "task", t.task);
      f.put("action", id.toString());
      f.put("due", dueAt.toString());
      emit("reconciliation_required", clock.get(), f);
    }
  }

  @Override
  public void finished(ActionId id, OutcomeCode code, String reason, OptionalInt lastStatus, Duration waited, Optional<String> operationId) {
    inner.finished(id, code, reason, lastStatus, waited, operationId);
    synchronized (this) {
      flush(id, operationId);
      Track t = tracks.remove(id);
      String event = switch (code) {
        case CANCELLED -> "cancelled";
        case RECONCILIATION_REQUIRED, OUTCOME_UNKNOWN -> "reconciliation_required";
        // ESCALATED: the escalation writes its own escalated record (with its id); not twice.
        case CIRCUIT_OPEN -> "circuit_opened";
        default -> null; // success and the other ends: the action_result already says it
      };
      if (event != null) {
        Map<String, Object> f = new LinkedHashMap<>();
        put(f, "task", t == null ? null : t.task);
        f.put("action", id.toString());
        f.put("outcome", code.name().toLowerCase(java.util.Locale.ROOT));
        lastStatus.ifPresent(s -> f.put("status", s));
        f.put("waited_seconds", waited.toSeconds());
        emit(event, clock.get(), f);
      }
    }
  }

  /**
   * Records an event that is not an engine step ({@code audit_exported}, {@code escalated},
   * {@code decision_recorded}, …), in order with the others. The same rules hold: metadata only,
   * string, integer or boolean values, none of the reserved keys.
   */
  public void event(String event, Instant at, Map<String, Object> fields) {
    synchronized (this) {
      emit(event, at, new LinkedHashMap<>(fields));
    }
  }

  /** The log this trail writes to. */
  public AuditLog log() {
    return log;
  }

  /** Writes what is held back and waits (up to 10 s) for the queue to drain; does not close the log. */
  @Override
  public void close() {
    synchronized (this) {
      for (ActionId id : Map.copyOf(tracks).keySet()) {
        flush(id, Optional.empty());
      }
    }
    thread.shutdown();
    try {
      if (!thread.awaitTermination(10, TimeUnit.SECONDS)) {
        LOG.warn("the audit log did not drain within 10 s");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void flush(ActionId id, Optional<String> operationId) {
    Track t = tracks.get(id);
    if (t == null || t.result == null) {
      return;
    }
    Map<String, Object> f = t.result;
    operationId.ifPresent(op -> f.put("provider_id", op));
    emit("action_result", t.resultAt, f);
    t.result = null;
  }

  private Track track(ActionId id) {
    return tracks.computeIfAbsent(id, k -> new Track());
  }

  private static Map<String, Object> base(AttemptRequest attempt) {
    Map<String, Object> f = new LinkedHashMap<>();
    f.put("task", attempt.taskId());
    attempt.journalId().ifPresent(id -> f.put("action", id.toString()));
    return f;
  }

  private static void put(Map<String, Object> f, String k, String v) {
    if (v != null) {
      f.put(k, v);
    }
  }

  private void emit(String event, Instant at, Map<String, Object> fields) {
    try {
      thread.execute(() -> {
        try {
          log.append(event, at, fields);
        } catch (RuntimeException e) {
          LOG.error("audit event {} could not be written: {}", event, e.getMessage());
        }
      });
    } catch (RejectedExecutionException e) {
      LOG.warn("audit event {} dropped: the audit trail is closed", event);
    }
  }
}
