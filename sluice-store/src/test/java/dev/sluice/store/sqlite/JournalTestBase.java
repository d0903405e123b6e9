package dev.sluice.store.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.core.http.Headers;
import dev.sluice.core.journal.ActionChanges;
import dev.sluice.core.journal.ActionRecord;
import dev.sluice.core.journal.ActionState;
import dev.sluice.core.journal.AttemptEnd;
import dev.sluice.core.journal.AttemptKind;
import dev.sluice.core.journal.AttemptRecord;
import dev.sluice.core.journal.TransitionResult;
import java.nio.file.Path;
import java.time.Instant;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

/** A fresh journal on a real SQLite file per test, and short-hands for walking an action's life. */
abstract class JournalTestBase {
  @TempDir Path dataDir;
  SqliteJournal journal;

  @BeforeEach
  void openJournal() {
    journal = SqliteJournal.open(dataDir);
  }

  @AfterEach
  void closeJournal() {
    journal.close();
  }

  ActionRecord move(ActionRecord a, ActionState to, ActionChanges changes, Instant at) {
    TransitionResult r = journal.transition(a.actionId(), a.state(), to, changes, at);
    assertThat(r.applied()).as("transition %s -> %s applied", a.state(), to).isTrue();
    return r.action();
  }

  ActionRecord move(ActionRecord a, ActionState to) {
    return move(a, to, to == ActionState.DELAYED ? ActionChanges.none().dueAt(a.dueAt().plusSeconds(5)) : ActionChanges.none(), a.updatedAt());
  }

  /** Moves the action to in_flight and starts a send with its own key. */
  AttemptRecord send(ActionRecord a, Instant at) {
    ActionRecord inFlight = a.state() == ActionState.IN_FLIGHT ? a : move(a, ActionState.IN_FLIGHT, ActionChanges.none(), at);
    return journal.startAttempt(inFlight.actionId(), AttemptKind.SEND, at, inFlight.idempotencyKey());
  }

  AttemptRecord finish(AttemptRecord attempt, AttemptEnd end, Instant at) {
    return journal.finishAttempt(attempt.actionId(), attempt.number(), end, at, Headers.empty());
  }

  ActionRecord reload(ActionRecord a) {
    return journal.action(a.actionId()).orElseThrow();
  }
}
