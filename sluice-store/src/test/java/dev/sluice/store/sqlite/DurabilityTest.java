package dev.sluice.store.sqlite;

import static dev.sluice.store.sqlite.Fixtures.T0;
import static dev.sluice.store.sqlite.Fixtures.at;
import static dev.sluice.store.sqlite.Fixtures.invoiceRead;
import static dev.sluice.store.sqlite.Fixtures.transfer;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.core.scope.ScopeRecord;
import dev.sluice.core.journal.ActionChanges;
import dev.sluice.core.journal.ActionRecord;
import dev.sluice.core.journal.ActionState;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/**
 * Which commits are power-loss safe (decision 0004): the {@code synchronous} level a transaction
 * committed with is still in force on the connection afterwards (SQLite cannot change it inside a
 * transaction, and reads do not change it), so each test reads it right after the call.
 */
class DurabilityTest extends JournalTestBase {
  static final String FULL = "2";
  static final String NORMAL = "1";

  String syncOfLastCommit() {
    return journal.database().read("reading synchronous", c -> MigrationTest.one(c, "PRAGMA synchronous"));
  }

  @Test
  void recordingAWriteCommitsWithSynchronousFull() {
    journal.recordAction(invoiceRead("t").build());
    assertThat(syncOfLastCommit()).isEqualTo(NORMAL);

    journal.recordAction(transfer("t", "k").build());

    assertThat(syncOfLastCommit()).isEqualTo(FULL);
  }

  @Test
  void everyChangeToAWriteActionIsFullAndToAReadActionNormal() {
    ActionRecord write = journal.recordAction(transfer("t", "k").build());
    ActionRecord read = journal.recordAction(invoiceRead("t").build());

    journal.transition(write.actionId(), ActionState.QUEUED, ActionState.IN_FLIGHT, ActionChanges.none(), at(1));
    assertThat(syncOfLastCommit()).isEqualTo(FULL);
    journal.transition(read.actionId(), ActionState.QUEUED, ActionState.IN_FLIGHT, ActionChanges.none(), at(1));
    assertThat(syncOfLastCommit()).isEqualTo(NORMAL);
    journal.startAttempt(write.actionId(), dev.sluice.core.journal.AttemptKind.SEND, at(1), write.idempotencyKey());
    assertThat(syncOfLastCommit()).isEqualTo(FULL);
  }

  @Test
  void cancellingATaskIsFullAndSavingAScopeNormal() {
    journal.cancelTask("t", T0);
    assertThat(syncOfLastCommit()).isEqualTo(FULL);

    journal.saveScope(new ScopeRecord("p", "s", "read", Optional.empty(), OptionalLong.empty(), OptionalLong.empty(), "none"));
    assertThat(syncOfLastCommit()).isEqualTo(NORMAL);
  }
}
