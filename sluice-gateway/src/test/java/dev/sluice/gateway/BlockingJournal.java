package dev.sluice.gateway;

import dev.sluice.core.http.Headers;
import dev.sluice.core.journal.ActionChanges;
import dev.sluice.core.journal.ActionId;
import dev.sluice.core.journal.ActionRecord;
import dev.sluice.core.journal.ActionState;
import dev.sluice.core.journal.AttemptEnd;
import dev.sluice.core.journal.AttemptKind;
import dev.sluice.core.journal.AttemptRecord;
import dev.sluice.core.journal.Journal;
import dev.sluice.core.journal.NewAction;
import dev.sluice.core.journal.TaskCancellation;
import dev.sluice.core.journal.TransitionResult;
import dev.sluice.core.scope.ScopeRecord;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A real journal whose {@link #openActions()} — what Sluice reads to resume at start — waits for
 * {@link #release()}: a start-up recovery that takes as long as the test says.
 */
final class BlockingJournal implements Journal {
  private final Journal inner;
  private final CountDownLatch released = new CountDownLatch(1);
  final CountDownLatch reading = new CountDownLatch(1);

  BlockingJournal(Journal inner) {
    this.inner = inner;
  }

  void release() {
    released.countDown();
  }

  @Override
  public List<ActionRecord> openActions() {
    reading.countDown();
    try {
      if (!released.await(60, TimeUnit.SECONDS)) {
        throw new IllegalStateException("the test never released the journal");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
    return inner.openActions();
  }

  @Override
  public ActionRecord recordAction(NewAction action) {
    return inner.recordAction(action);
  }

  @Override
  public Optional<ActionRecord> action(ActionId id) {
    return inner.action(id);
  }

  @Override
  public Optional<ActionRecord> actionByIdempotencyKey(String provider, String idempotencyKey) {
    return inner.actionByIdempotencyKey(provider, idempotencyKey);
  }

  @Override
  public TransitionResult transition(ActionId id, ActionState from, ActionState to, ActionChanges changes, Instant at) {
    return inner.transition(id, from, to, changes, at);
  }

  @Override
  public AttemptRecord startAttempt(ActionId id, AttemptKind kind, Instant startedAt, Optional<String> idempotencyKeySent) {
    return inner.startAttempt(id, kind, startedAt, idempotencyKeySent);
  }

  @Override
  public AttemptRecord finishAttempt(ActionId id, int number, AttemptEnd end, Instant finishedAt, Headers responseHeaders) {
    return inner.finishAttempt(id, number, end, finishedAt, responseHeaders);
  }

  @Override
  public List<AttemptRecord> attempts(ActionId id) {
    return inner.attempts(id);
  }

  @Override
  public TaskCancellation cancelTask(String taskId, Instant at) {
    return inner.cancelTask(taskId, at);
  }

  @Override
  public boolean isCancelled(String taskId) {
    return inner.isCancelled(taskId);
  }

  @Override
  public void saveScope(ScopeRecord record) {
    inner.saveScope(record);
  }

  @Override
  public List<ScopeRecord> scopes() {
    return inner.scopes();
  }

  @Override
  public void close() {
    inner.close();
  }

  @Override
  public dev.sluice.core.journal.EscalationRecord recordEscalation(dev.sluice.core.journal.NewEscalation escalation) {
    return inner.recordEscalation(escalation);
  }

  @Override
  public Optional<dev.sluice.core.journal.EscalationRecord> escalation(dev.sluice.core.escalation.EscalationId id) {
    return inner.escalation(id);
  }

  @Override
  public List<dev.sluice.core.journal.EscalationRecord> escalations() {
    return inner.escalations();
  }

  @Override
  public dev.sluice.core.journal.EscalationRecord decide(dev.sluice.core.escalation.EscalationId id, dev.sluice.core.escalation.Decision decision) {
    return inner.decide(id, decision);
  }

  @Override
  public void recordTaskGoal(String taskId, String goal) {
    inner.recordTaskGoal(taskId, goal);
  }

  @Override
  public Optional<String> taskGoal(String taskId) {
    return inner.taskGoal(taskId);
  }
}
