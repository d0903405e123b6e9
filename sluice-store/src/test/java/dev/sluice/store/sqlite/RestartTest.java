package dev.sluice.store.sqlite;

import static dev.sluice.store.sqlite.Fixtures.at;
import static dev.sluice.store.sqlite.Fixtures.invoiceRead;
import static dev.sluice.store.sqlite.Fixtures.transfer;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.core.engine.OutcomeCode;
import dev.sluice.core.policy.RequestClass;
import dev.sluice.core.journal.ActionChanges;
import dev.sluice.core.journal.ActionRecord;
import dev.sluice.core.journal.ActionState;
import dev.sluice.core.journal.AttemptEnd;
import dev.sluice.core.journal.AttemptKind;
import dev.sluice.core.journal.AttemptRecord;
import dev.sluice.core.journal.TransitionResult;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** A restart is a close and a reopen of the same file; what the engine resumes must be there, unchanged. */
class RestartTest extends JournalTestBase {

  @Test
  void openActionsComeBackWithTheirDueTimesBudgetsAndKeys() {
    ActionRecord queued = journal.recordAction(transfer("t1", "key-q").deadline(at(600)).dueAt(at(3)).build());
    ActionRecord delayed = journal.recordAction(transfer("t1", "key-d").externalReference("ref-d").build());
    finish(send(delayed, at(1)), AttemptEnd.response(429), at(2));
    delayed = move(reload(delayed), ActionState.DELAYED,
        ActionChanges.none().dueAt(at(12)).waited(Duration.ofMillis(2500)).lastStatus(429).reason("429 Retry-After: 10"), at(2));
    ActionRecord inFlight = journal.recordAction(transfer("t2", "key-f").build());
    send(inFlight, at(4));
    inFlight = reload(inFlight);
    ActionRecord unknown = journal.recordAction(transfer("t2", "key-u").build());
    finish(send(unknown, at(1)), AttemptEnd.abandoned(), at(2));
    unknown = move(reload(unknown), ActionState.OUTCOME_UNKNOWN);
    ActionRecord done = journal.recordAction(invoiceRead("t3").build());
    finish(send(done, at(1)), AttemptEnd.response(200), at(1));
    move(reload(done), ActionState.SUCCEEDED);
    ActionRecord stopped = journal.recordAction(transfer("t3", "key-s").build());
    finish(send(stopped, at(1)), AttemptEnd.abandoned(), at(1));
    move(move(reload(stopped), ActionState.OUTCOME_UNKNOWN), ActionState.RECONCILIATION_REQUIRED);
    List<ActionRecord> before = journal.openActions();
    journal.close();

    journal = SqliteJournal.open(dataDir);
    List<ActionRecord> after = journal.openActions();

    assertThat(after).isEqualTo(before);
    assertThat(after).as("ordered by due time: in-flight and unknown kept their first due time (0 s), queued at 3 s, delayed at 12 s")
        .extracting(ActionRecord::dueAt).containsExactly(at(0), at(0), at(3), at(12));
    assertThat(after.subList(0, 2)).containsExactlyInAnyOrder(inFlight, unknown);
    assertThat(after.get(2).actionId()).isEqualTo(queued.actionId());
    ActionRecord d = after.get(3);
    assertThat(d).isEqualTo(delayed);
    assertThat(d.dueAt()).isEqualTo(at(12));
    assertThat(d.attemptsUsed()).isEqualTo(1);
    assertThat(d.waited()).isEqualTo(Duration.ofMillis(2500));
    assertThat(d.requestClass()).isEqualTo(RequestClass.SEED_IDEMPOTENT_WRITE);
    assertThat(d.idempotencyKey()).contains("key-d");
    assertThat(d.externalReference()).contains("ref-d");
    assertThat(d.lastStatus()).hasValue(429);
    ActionRecord q = after.get(2);
    assertThat(q.deadline()).contains(at(600));
    assertThat(q.idempotencyKey()).contains("key-q");
    assertThat(q.keptPayload()).hasValueSatisfying(p -> assertThat(p).isEqualTo(transfer("x", "y").build().payload()));
  }

  @Test
  void aWriteInFlightAtTheCrashIsResumedAsOutcomeUnknownWithItsOriginalKey() {
    ActionRecord a = journal.recordAction(transfer("t", "original-key").build());
    AttemptRecord open = send(a, at(1));
    journal.close();

    journal = SqliteJournal.open(dataDir);
    ActionRecord found = journal.openActions().get(0);
    AttemptRecord last = journal.attempts(found.actionId()).get(0);
    assertThat(found.state()).isEqualTo(ActionState.IN_FLIGHT);
    assertThat(last.finished()).as("the attempt was open when the process died").isFalse();

    // The recovery recipe of Journal's javadoc.
    journal.finishAttempt(found.actionId(), last.number(), AttemptEnd.abandoned(), at(100), dev.sluice.core.http.Headers.empty());
    ActionRecord unknown = move(reload(found), ActionState.OUTCOME_UNKNOWN, ActionChanges.none(), at(100));
    ActionRecord reconciling = move(unknown, ActionState.RECONCILING, ActionChanges.none(), at(100));
    AttemptRecord lookup = journal.startAttempt(a.actionId(), AttemptKind.LOOKUP, at(101), Optional.empty());

    assertThat(reconciling.idempotencyKey()).contains("original-key");
    assertThat(lookup.number()).isEqualTo(open.number() + 1);
    assertThat(reconciling.attemptsUsed()).isEqualTo(1);
  }

  @Test
  void aReadInFlightAtTheCrashGoesBackToTheQueue() {
    ActionRecord a = journal.recordAction(invoiceRead("t").build());
    AttemptRecord open = send(a, at(1));
    journal.close();

    journal = SqliteJournal.open(dataDir);
    journal.finishAttempt(a.actionId(), open.number(), AttemptEnd.abandoned(), at(100), dev.sluice.core.http.Headers.empty());
    TransitionResult r = journal.transition(a.actionId(), ActionState.IN_FLIGHT, ActionState.QUEUED, ActionChanges.none().dueAt(at(100)), at(100));

    assertThat(r.applied()).isTrue();
    assertThat(r.action().attemptsUsed()).as("the lost attempt still counts").isEqualTo(1);
  }

  @Test
  void finishedActionsAreNotResumedButStayReadable() {
    ActionRecord a = journal.recordAction(invoiceRead("t").build());
    move(a, ActionState.FAILED, ActionChanges.none().outcome(OutcomeCode.CLIENT_ERROR).lastStatus(404), at(1));
    journal.close();

    journal = SqliteJournal.open(dataDir);

    assertThat(journal.openActions()).isEmpty();
    assertThat(reload(a).outcome()).contains(OutcomeCode.CLIENT_ERROR);
    assertThat(reload(a).lastStatus()).hasValue(404);
  }
}
