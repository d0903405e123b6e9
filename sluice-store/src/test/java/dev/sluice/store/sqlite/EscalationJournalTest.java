package dev.sluice.store.sqlite;

import static dev.sluice.store.sqlite.Fixtures.at;
import static dev.sluice.store.sqlite.Fixtures.transfer;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.core.escalation.Decision;
import dev.sluice.core.escalation.DecisionOption;
import dev.sluice.core.escalation.EscalationState;
import dev.sluice.core.escalation.Trigger;
import dev.sluice.core.journal.ActionRecord;
import dev.sluice.core.journal.ActionState;
import dev.sluice.core.journal.EscalationRecord;
import dev.sluice.core.journal.IllegalTransitionException;
import dev.sluice.core.journal.NewEscalation;
import dev.sluice.store.sqlite.internal.Database;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.NoSuchElementException;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.Test;

/** Escalations, decisions, task goals and the awaiting_approval state in the SQLite journal (schema V2). */
class EscalationJournalTest extends JournalTestBase {

  NewEscalation uncertain(ActionRecord a) {
    return new NewEscalation(a.actionId(), Trigger.UNCERTAIN_WRITE, "no answer after send",
        List.of(DecisionOption.QUERY_EXISTING, DecisionOption.RETRY_SAME_KEY, DecisionOption.CANCEL, DecisionOption.SEND_NEW), at(5));
  }

  @Test
  void anEscalationIsNumberedKeptAcrossAReopenAndDecidedExactlyOnce() {
    ActionRecord a = journal.recordAction(transfer("t", "k1").build());
    EscalationRecord e = journal.recordEscalation(uncertain(a));

    assertThat(e.id().toString()).isEqualTo("E-1");
    assertThat(e.state()).isEqualTo(EscalationState.OPEN);
    assertThat(journal.recordEscalation(uncertain(a))).as("one open escalation per action").isEqualTo(e);

    journal.close();
    journal = SqliteJournal.open(dataDir);
    assertThat(journal.escalation(e.id())).contains(e);
    assertThat(journal.escalations()).containsExactly(e);

    Decision d = new Decision(DecisionOption.QUERY_EXISTING, "ada", "check first", false, at(9));
    EscalationRecord decided = journal.decide(e.id(), d);
    assertThat(decided.state()).isEqualTo(EscalationState.DECIDED);
    assertThat(decided.decision()).contains(d);
    assertThatThrownBy(() -> journal.decide(e.id(), new Decision(DecisionOption.CANCEL, "bob", "no", false, at(10))))
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("already decided (query_existing by ada)");
    assertThat(journal.escalation(e.id()).orElseThrow().decision()).contains(d);

    EscalationRecord second = journal.recordEscalation(uncertain(a));
    assertThat(second.id().toString()).as("a decided escalation leaves room for a new one").isEqualTo("E-2");
  }

  @Test
  void anEscalationOfAnUnknownActionOrAnUnknownIdIsRefused() {
    ActionRecord a = journal.recordAction(transfer("t", "k1").build());
    EscalationRecord e = journal.recordEscalation(uncertain(a));
    assertThatThrownBy(() -> journal.decide(new dev.sluice.core.escalation.EscalationId(99), new Decision(DecisionOption.CANCEL, "a", "b", false, at(1))))
        .isInstanceOf(NoSuchElementException.class);
    assertThat(journal.escalation(new dev.sluice.core.escalation.EscalationId(e.id().number() + 1))).isEmpty();
  }

  @Test
  void aTaskGoalIsKeptOnceTheFirstWins() {
    journal.recordTaskGoal("t", "pay the March invoices");
    journal.recordTaskGoal("t", "something else");
    assertThat(journal.taskGoal("t")).contains("pay the March invoices");
    assertThat(journal.taskGoal("other")).isEmpty();
  }

  @Test
  void anActionAwaitingApprovalIsNotOpenAndCanOnlyBeApprovedOrRejected() {
    ActionRecord a = journal.recordAction(transfer("t", "k1").awaitingApproval().build());
    assertThat(a.state()).isEqualTo(ActionState.AWAITING_APPROVAL);
    assertThat(journal.openActions()).isEmpty();
    assertThatThrownBy(() -> journal.transition(a.actionId(), ActionState.AWAITING_APPROVAL, ActionState.IN_FLIGHT,
        dev.sluice.core.journal.ActionChanges.none(), at(1))).isInstanceOf(IllegalTransitionException.class);

    ActionRecord queued = move(a, ActionState.QUEUED);
    assertThat(journal.openActions()).extracting(ActionRecord::actionId).containsExactly(a.actionId());
    assertThat(queued.state()).isEqualTo(ActionState.QUEUED);
  }

  @Test
  void aVersion1DatabaseWithDataIsUpgradedKeepingItsActionsAndAttempts() throws Exception {
    journal.close();
    Path old = Files.createDirectories(dataDir.resolve("v1"));
    Path db = old.resolve(SqliteJournal.FILE_NAME);
    Flyway.configure().dataSource(Database.dataSource(db, Duration.ofSeconds(5))).locations("classpath:db/journal/sqlite")
        .table(dev.sluice.store.sqlite.internal.Migrations.HISTORY_TABLE).target("1").load().migrate();
    try (Connection c = Database.dataSource(db, Duration.ofSeconds(5)).getConnection(); Statement s = c.createStatement()) {
      s.execute("INSERT INTO actions VALUES ('01JDZ0000000000000000000AA', 't', 'interactive', 'billing-api', 'account:ops-team', '/v1/transfers',"
          + " 'POST', '/v1/transfers', 'idempotent_write', 3, 120000000, '408,429', '[]', 'ab', 2, X'7B7D', 'k-old', NULL, NULL, 'outcome_unknown',"
          + " 1, 1, 1, 1, 0, NULL, NULL, NULL, NULL, 3)");
      s.execute("INSERT INTO attempts (action_id, attempt_number, kind, started_at, idempotency_key_sent, finished_at, request_committed, failure)"
          + " VALUES ('01JDZ0000000000000000000AA', 1, 'send', 1, 'k-old', 2, 1, 'read_timeout')");
    }

    journal = SqliteJournal.open(old);
    ActionRecord kept = journal.actionByIdempotencyKey("billing-api", "k-old").orElseThrow();
    assertThat(kept.state()).isEqualTo(ActionState.OUTCOME_UNKNOWN);
    assertThat(journal.attempts(kept.actionId())).hasSize(1);
    assertThat(journal.openActions()).extracting(ActionRecord::actionId).containsExactly(kept.actionId());
    EscalationRecord e = journal.recordEscalation(uncertain(kept));
    assertThat(e.actionId()).isEqualTo(kept.actionId());
    try (Connection c = Database.dataSource(db, Duration.ofSeconds(5)).getConnection(); Statement s = c.createStatement();
        var rs = s.executeQuery("PRAGMA foreign_key_check")) {
      assertThat(rs.next()).as("no dangling foreign key after the rebuild").isFalse();
    }
  }
}
