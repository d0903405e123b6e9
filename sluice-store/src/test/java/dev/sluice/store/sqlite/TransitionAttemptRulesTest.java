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

/** The rules that depend on attempts: nothing leaves an open attempt behind, and a write sent without an answer is looked up, never resent. */
class TransitionAttemptRulesTest extends JournalTestBase {
  @Test
  void anActionCannotLeaveInFlightWhileItsAttemptIsOpen() {
    ActionRecord a = journal.recordAction(invoiceRead("t").build());
    AttemptRecord open = send(a, at(1));

    assertThatThrownBy(() -> journal.transition(a.actionId(), ActionState.IN_FLIGHT, ActionState.SUCCEEDED, ActionChanges.none(), at(2)))
        .isInstanceOf(IllegalTransitionException.class)
        .hasMessageContaining("attempt " + open.number() + " is still open");
  }

  @Test
  void aWriteSentWithoutAnAnswerCanOnlyBecomeOutcomeUnknown() {
    ActionRecord a = journal.recordAction(transfer("t", "k").build());
    finish(send(a, at(1)), AttemptEnd.failed(TransportFailure.RESET_AFTER_SEND), at(2));

    for (ActionState to : new ActionState[] {ActionState.DELAYED, ActionState.QUEUED, ActionState.CANCELLED, ActionState.FAILED}) {
      ActionChanges ch = ActionChanges.none().dueAt(at(10)).outcome(OutcomeCode.OUTCOME_UNKNOWN);
      if (to == ActionState.QUEUED || to == ActionState.DELAYED) {
        ch = ActionChanges.none().dueAt(at(10));
      } else if (to == ActionState.CANCELLED) {
        ch = ActionChanges.none();
      }
      ActionChanges changes = ch;
      assertThatThrownBy(() -> journal.transition(a.actionId(), ActionState.IN_FLIGHT, to, changes, at(2)))
          .as("in_flight -> %s", to)
          .isInstanceOf(IllegalTransitionException.class)
          .hasMessageContaining("may have reached the provider (reset_after_send, no response)")
          .hasMessageContaining("only go to outcome_unknown");
    }
    assertThat(move(reload(a), ActionState.OUTCOME_UNKNOWN).state()).isEqualTo(ActionState.OUTCOME_UNKNOWN);
  }

  @Test
  void aWriteThatFailedBeforeSendingMayBeRetried() {
    ActionRecord a = journal.recordAction(transfer("t", "k").build());
    finish(send(a, at(1)), AttemptEnd.failed(TransportFailure.CONNECT_FAILED), at(2));

    ActionRecord delayed = move(reload(a), ActionState.DELAYED, ActionChanges.none().dueAt(at(5)), at(2));
    assertThat(delayed.state()).isEqualTo(ActionState.DELAYED);
  }

  @Test
  void aWriteThatGotAnAnswerMayBeRetriedWithItsKey() {
    ActionRecord a = journal.recordAction(transfer("t", "k").build());
    finish(send(a, at(1)), AttemptEnd.response(503), at(2));

    assertThat(move(reload(a), ActionState.DELAYED, ActionChanges.none().dueAt(at(5)), at(2)).state()).isEqualTo(ActionState.DELAYED);
  }

  @Test
  void aReadWithoutAnAnswerMayBeSentAgain() {
    ActionRecord a = journal.recordAction(invoiceRead("t").build());
    finish(send(a, at(1)), AttemptEnd.failed(TransportFailure.READ_TIMEOUT), at(31));

    assertThat(move(reload(a), ActionState.DELAYED, ActionChanges.none().dueAt(at(33)), at(31)).state()).isEqualTo(ActionState.DELAYED);
  }

  @Test
  void aWriteAbandonedByACrashGoesToOutcomeUnknownNotBackToTheQueue() {
    ActionRecord a = journal.recordAction(transfer("t", "k").build());
    AttemptRecord open = send(a, at(1));
    finish(open, AttemptEnd.abandoned(), at(100));

    assertThatThrownBy(() -> journal.transition(a.actionId(), ActionState.IN_FLIGHT, ActionState.QUEUED, ActionChanges.none(), at(100)))
        .hasMessageContaining("abandoned, no response");
    assertThat(move(reload(a), ActionState.OUTCOME_UNKNOWN).state()).isEqualTo(ActionState.OUTCOME_UNKNOWN);
  }

  @Test
  void aWriteInFlightWhoseSendNeverStartedMayGoBackToTheQueue() {
    // The journal proves nothing left: the crash came between in_flight and startAttempt.
    ActionRecord a = move(journal.recordAction(transfer("t", "k").build()), ActionState.IN_FLIGHT);

    assertThat(move(a, ActionState.QUEUED).state()).isEqualTo(ActionState.QUEUED);
  }

  @Test
  void reconciliationThatProvesTheWriteAbsentResendsWithTheSameKey() {
    ActionRecord a = journal.recordAction(transfer("t", "k-1").build());
    finish(send(a, at(1)), AttemptEnd.failed(TransportFailure.READ_TIMEOUT), at(31));
    ActionRecord unknown = move(reload(a), ActionState.OUTCOME_UNKNOWN);
    ActionRecord reconciling = move(unknown, ActionState.RECONCILING);
    AttemptRecord lookup = journal.startAttempt(a.actionId(), dev.sluice.core.journal.AttemptKind.LOOKUP, at(32), java.util.Optional.empty());
    finish(lookup, AttemptEnd.response(404), at(33));
    ActionRecord requeued = move(reload(reconciling), ActionState.QUEUED, ActionChanges.none().dueAt(at(33)).reason("look-up: absent"), at(33));
    AttemptRecord resend = send(requeued, at(34));

    assertThat(resend.number()).isEqualTo(3);
    assertThat(resend.idempotencyKeySent()).contains("k-1");
    assertThat(reload(a).attemptsUsed()).as("look-ups are not sends").isEqualTo(2);
  }

  @Test
  void anUncertainWriteWithoutALookupStopsAndIsEscalatedThenDecided() {
    ActionRecord a = journal.recordAction(transfer("t", "k").build());
    finish(send(a, at(1)), AttemptEnd.failed(TransportFailure.TRUNCATED_RESPONSE), at(2));
    ActionRecord stopped = move(move(reload(a), ActionState.OUTCOME_UNKNOWN), ActionState.RECONCILIATION_REQUIRED,
        ActionChanges.none().reason("no idempotency and no look-up"), at(2));
    ActionRecord escalated = move(stopped, ActionState.ESCALATED);

    assertThat(stopped.outcome()).contains(OutcomeCode.RECONCILIATION_REQUIRED);
    assertThat(stopped.state().open()).as("a person decides; a restart does not resume it").isFalse();
    assertThat(escalated.outcome()).contains(OutcomeCode.ESCALATED);
    assertThat(escalated.reason()).isEmpty();
    ActionRecord decided = move(escalated, ActionState.CANCELLED, ActionChanges.none().reason("operator: cancel"), at(60));
    assertThat(decided.outcome()).contains(OutcomeCode.CANCELLED);
  }
}
