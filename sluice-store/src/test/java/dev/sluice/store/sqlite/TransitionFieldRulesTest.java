package dev.sluice.store.sqlite;

import static dev.sluice.store.sqlite.Fixtures.at;
import static dev.sluice.store.sqlite.Fixtures.invoiceRead;
import static dev.sluice.store.sqlite.Fixtures.transfer;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.core.classify.TransportFailure;
import dev.sluice.core.engine.OutcomeCode;
import dev.sluice.core.journal.ActionChanges;
import dev.sluice.core.journal.ActionId;
import dev.sluice.core.journal.ActionRecord;
import dev.sluice.core.journal.ActionState;
import dev.sluice.core.journal.AttemptEnd;
import dev.sluice.core.journal.AttemptRecord;
import dev.sluice.core.journal.IllegalTransitionException;
import dev.sluice.core.journal.TransitionResult;
import java.time.Duration;
import java.util.NoSuchElementException;
import org.junit.jupiter.api.Test;

/** The rules on the fields that change with a transition. */
class TransitionFieldRulesTest extends JournalTestBase {
  @Test
  void enteringDelayedNeedsADueTime() {
    ActionRecord a = journal.recordAction(invoiceRead("t").build());

    assertThatThrownBy(() -> journal.transition(a.actionId(), ActionState.QUEUED, ActionState.DELAYED, ActionChanges.none(), at(1)))
        .isInstanceOf(IllegalTransitionException.class)
        .hasMessageContaining("needs a due time");
  }

  @Test
  void waitedTimeNeverDecreases() {
    ActionRecord a = move(journal.recordAction(invoiceRead("t").build()), ActionState.QUEUED, ActionChanges.none().waited(Duration.ofSeconds(5)),
        at(5));

    assertThatThrownBy(() -> journal.transition(a.actionId(), ActionState.QUEUED, ActionState.QUEUED,
        ActionChanges.none().waited(Duration.ofSeconds(4)), at(6)))
        .isInstanceOf(IllegalTransitionException.class)
        .hasMessageContaining("never decreases");
  }

  @Test
  void failedNeedsAnOutcomeAndNotSuccess() {
    ActionRecord a = journal.recordAction(invoiceRead("t").build());

    assertThatThrownBy(() -> journal.transition(a.actionId(), ActionState.QUEUED, ActionState.FAILED, ActionChanges.none(), at(1)))
        .hasMessageContaining("needs an outcome code");
    assertThatThrownBy(() -> journal.transition(a.actionId(), ActionState.QUEUED, ActionState.FAILED,
        ActionChanges.none().outcome(OutcomeCode.SUCCEEDED), at(1)))
        .hasMessageContaining("cannot have the outcome succeeded");

    ActionRecord failed = move(a, ActionState.FAILED, ActionChanges.none().outcome(OutcomeCode.SCOPE_BACKPRESSURE).reason("queue full"), at(1));
    assertThat(failed.outcome()).contains(OutcomeCode.SCOPE_BACKPRESSURE);
  }

  @Test
  void stoppedStatesCarryTheirOwnOutcomeAndRefuseAnother() {
    ActionRecord a = journal.recordAction(invoiceRead("t").build());

    assertThatThrownBy(() -> journal.transition(a.actionId(), ActionState.QUEUED, ActionState.CANCELLED,
        ActionChanges.none().outcome(OutcomeCode.BUDGET_EXHAUSTED), at(1)))
        .hasMessageContaining("the outcome of cancelled is cancelled");
    assertThat(move(a, ActionState.CANCELLED).outcome()).contains(OutcomeCode.CANCELLED);
  }

  @Test
  void anOpenStateHasNoOutcome() {
    ActionRecord a = journal.recordAction(invoiceRead("t").build());

    assertThatThrownBy(() -> journal.transition(a.actionId(), ActionState.QUEUED, ActionState.IN_FLIGHT,
        ActionChanges.none().outcome(OutcomeCode.SUCCEEDED), at(1)))
        .hasMessageContaining("an open action has no outcome");
  }

  @Test
  void theProviderOperationIdOnceRecordedNeverChanges() {
    ActionRecord a = move(journal.recordAction(transfer("t", "k").build()), ActionState.IN_FLIGHT, ActionChanges.none()
        .providerOperationId("op-1"), at(1));

    assertThatThrownBy(() -> journal.transition(a.actionId(), ActionState.IN_FLIGHT, ActionState.IN_FLIGHT,
        ActionChanges.none().providerOperationId("op-2"), at(2)))
        .hasMessageContaining("operation id is already recorded");
    assertThat(move(a, ActionState.IN_FLIGHT, ActionChanges.none().providerOperationId("op-1"), at(2)).providerOperationId()).contains("op-1");
  }
}
