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

/** Transitions apply only from the state the caller names. */
class CompareAndSetTest extends JournalTestBase {
  @Test
  void aTransitionFromAStateTheActionHasLeftIsNotAppliedAndShowsTheWinner() {
    ActionRecord a = journal.recordAction(transfer("t", "k").build());
    ActionRecord winner = move(a, ActionState.IN_FLIGHT);

    TransitionResult late = journal.transition(a.actionId(), ActionState.QUEUED, ActionState.IN_FLIGHT, ActionChanges.none(), at(1));

    assertThat(late.applied()).isFalse();
    assertThat(late.action()).isEqualTo(winner);
    assertThat(reload(a)).isEqualTo(winner);
  }

  @Test
  void everyChangeBumpsTheVersion() {
    ActionRecord a = journal.recordAction(invoiceRead("t").build());
    ActionRecord d1 = move(a, ActionState.DELAYED, ActionChanges.none().dueAt(at(5)), at(1));
    ActionRecord d2 = move(d1, ActionState.DELAYED, ActionChanges.none().dueAt(at(9)), at(2));

    assertThat(a.version()).isEqualTo(1);
    assertThat(d1.version()).isEqualTo(2);
    assertThat(d2.version()).isEqualTo(3);
    assertThat(d2.dueAt()).as("a self-transition moves the due time").isEqualTo(at(9));
  }
}
