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

/** The state machine's table: what may follow what, and clear refusals. */
class StateTableTest extends JournalTestBase {
  @Test
  void aWriteGoesQueuedInFlightSucceededWithItsFields() {
    ActionRecord a = journal.recordAction(transfer("t", "k").build());
    AttemptRecord first = send(a, at(1));
    finish(first, AttemptEnd.response(201), at(2));

    TransitionResult done = journal.transition(a.actionId(), ActionState.IN_FLIGHT, ActionState.SUCCEEDED,
        ActionChanges.none().lastStatus(201).providerOperationId("tr_1").waited(Duration.ofMillis(1500)).reason("created"), at(2));

    assertThat(done.applied()).isTrue();
    ActionRecord r = reload(a);
    assertThat(r).isEqualTo(done.action());
    assertThat(r.state()).isEqualTo(ActionState.SUCCEEDED);
    assertThat(r.outcome()).contains(OutcomeCode.SUCCEEDED);
    assertThat(r.lastStatus()).hasValue(201);
    assertThat(r.providerOperationId()).contains("tr_1");
    assertThat(r.waited()).isEqualTo(Duration.ofMillis(1500));
    assertThat(r.reason()).contains("created");
    assertThat(r.updatedAt()).isEqualTo(at(2));
    assertThat(r.attemptsUsed()).isEqualTo(1);
  }

  @Test
  void aRetryIsDelayedWithItsDueTimeAndComesBackToTheQueue() {
    ActionRecord a = journal.recordAction(transfer("t", "k").build());
    finish(send(a, at(1)), AttemptEnd.response(503), at(2));

    ActionRecord delayed = move(reload(a), ActionState.DELAYED, ActionChanges.none().dueAt(at(12)).lastStatus(503).reason("503, retry"), at(2));
    ActionRecord requeued = move(delayed, ActionState.QUEUED, ActionChanges.none().waited(Duration.ofSeconds(10)), at(12));

    assertThat(delayed.dueAt()).isEqualTo(at(12));
    assertThat(delayed.reason()).contains("503, retry");
    assertThat(requeued.state()).isEqualTo(ActionState.QUEUED);
    assertThat(requeued.dueAt()).isEqualTo(at(12));
    assertThat(requeued.reason()).as("a new state clears the old reason").isEmpty();
    assertThat(requeued.waited()).isEqualTo(Duration.ofSeconds(10));
  }

  @Test
  void everyPairTheTableForbidsIsRefusedWithAMessageNamingBothStates() {
    ActionRecord a = journal.recordAction(invoiceRead("t").build());
    for (ActionState from : ActionState.values()) {
      for (ActionState to : ActionState.values()) {
        if (from.canBecome(to)) {
          continue;
        }
        assertThatThrownBy(() -> journal.transition(a.actionId(), from, to, ActionChanges.none(), at(1)))
            .as("%s -> %s", from, to)
            .isInstanceOf(IllegalTransitionException.class)
            .hasMessageContaining("from " + from.code() + " to " + to.code());
      }
    }
    assertThat(reload(a).state()).isEqualTo(ActionState.QUEUED);
    assertThat(reload(a).version()).isEqualTo(1);
  }

  @Test
  void outcomeUnknownCanNeverGoStraightBackToTheQueue() {
    assertThatThrownBy(() -> journal.transition(ActionId.newId(at(0)), ActionState.OUTCOME_UNKNOWN, ActionState.QUEUED, ActionChanges.none(),
        at(1)))
        .isInstanceOf(IllegalTransitionException.class)
        .hasMessageContaining("allowed from outcome_unknown: outcome_unknown, reconciling, reconciliation_required");
  }

  @Test
  void terminalStatesAcceptNothingNotEvenThemselves() {
    ActionRecord a = journal.recordAction(invoiceRead("t").build());
    ActionRecord cancelled = move(a, ActionState.CANCELLED);

    assertThatThrownBy(() -> journal.transition(a.actionId(), ActionState.CANCELLED, ActionState.CANCELLED, ActionChanges.none(), at(1)))
        .isInstanceOf(IllegalTransitionException.class)
        .hasMessageContaining("nothing, it is terminal");
    assertThat(reload(cancelled)).isEqualTo(cancelled);
  }

  @Test
  void anUnknownActionIsReportedAsMissing() {
    ActionId nobody = ActionId.newId(at(0));
    assertThatThrownBy(() -> journal.transition(nobody, ActionState.QUEUED, ActionState.IN_FLIGHT, ActionChanges.none(), at(1)))
        .isInstanceOf(NoSuchElementException.class)
        .hasMessageContaining(nobody.value());
  }
}
