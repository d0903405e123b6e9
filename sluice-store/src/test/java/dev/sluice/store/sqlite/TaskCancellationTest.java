package dev.sluice.store.sqlite;

import static dev.sluice.store.sqlite.Fixtures.at;
import static dev.sluice.store.sqlite.Fixtures.invoiceRead;
import static dev.sluice.store.sqlite.Fixtures.transfer;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.core.engine.OutcomeCode;
import dev.sluice.core.journal.ActionRecord;
import dev.sluice.core.journal.ActionState;
import dev.sluice.core.journal.AttemptEnd;
import dev.sluice.core.journal.TaskCancellation;
import org.junit.jupiter.api.Test;

class TaskCancellationTest extends JournalTestBase {

  @Test
  void cancellingATaskCancelsItsWaitingActionsInTheSameCommit() {
    ActionRecord queued = journal.recordAction(invoiceRead("t").build());
    ActionRecord delayed = journal.recordAction(transfer("t", "k1").delayedUntil(at(60)).build());
    ActionRecord otherTask = journal.recordAction(invoiceRead("other").build());

    TaskCancellation c = journal.cancelTask("t", at(5));

    assertThat(c.alreadyCancelled()).isFalse();
    assertThat(c.cancelledAt()).isEqualTo(at(5));
    assertThat(c.cancelledActions()).containsExactlyInAnyOrder(queued.actionId(), delayed.actionId());
    assertThat(reload(queued).state()).isEqualTo(ActionState.CANCELLED);
    assertThat(reload(delayed).outcome()).contains(OutcomeCode.CANCELLED);
    assertThat(reload(delayed).reason()).contains("task cancelled");
    assertThat(reload(otherTask).state()).isEqualTo(ActionState.QUEUED);
    assertThat(journal.isCancelled("t")).isTrue();
    assertThat(journal.isCancelled("other")).isFalse();
  }

  @Test
  void actionsWhoseEffectMayExistAreLeftToFinish() {
    ActionRecord inFlight = journal.recordAction(transfer("t", "k1").build());
    send(inFlight, at(1));
    ActionRecord unknown = journal.recordAction(transfer("t", "k2").build());
    finish(send(unknown, at(1)), AttemptEnd.abandoned(), at(2));
    unknown = move(reload(unknown), ActionState.OUTCOME_UNKNOWN);

    TaskCancellation c = journal.cancelTask("t", at(5));

    assertThat(c.cancelledActions()).isEmpty();
    assertThat(reload(inFlight).state()).isEqualTo(ActionState.IN_FLIGHT);
    assertThat(reload(unknown).state()).isEqualTo(ActionState.OUTCOME_UNKNOWN);
  }

  @Test
  void cancellingAgainKeepsTheFirstTimeAndCancelsLateArrivals() {
    journal.cancelTask("t", at(5));
    ActionRecord late = journal.recordAction(invoiceRead("t").build());

    TaskCancellation again = journal.cancelTask("t", at(9));

    assertThat(again.alreadyCancelled()).isTrue();
    assertThat(again.cancelledAt()).isEqualTo(at(5));
    assertThat(again.cancelledActions()).containsExactly(late.actionId());
  }

  @Test
  void aCancelledTaskStaysCancelledAfterARestart() {
    ActionRecord waiting = journal.recordAction(transfer("t", "k").delayedUntil(at(60)).build());
    journal.cancelTask("t", at(5));
    journal.close();

    journal = SqliteJournal.open(dataDir);

    assertThat(journal.isCancelled("t")).isTrue();
    assertThat(journal.openActions()).isEmpty();
    assertThat(reload(waiting).state()).isEqualTo(ActionState.CANCELLED);
  }
}
