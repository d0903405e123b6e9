package dev.sluice.store.sqlite;

import static dev.sluice.store.sqlite.Fixtures.at;
import static dev.sluice.store.sqlite.Fixtures.transfer;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.core.http.Headers;
import dev.sluice.core.journal.ActionChanges;
import dev.sluice.core.journal.ActionId;
import dev.sluice.core.journal.ActionRecord;
import dev.sluice.core.journal.ActionState;
import dev.sluice.core.journal.AttemptEnd;
import dev.sluice.core.journal.AttemptKind;
import dev.sluice.core.journal.AttemptRecord;
import dev.sluice.core.journal.IllegalTransitionException;
import dev.sluice.core.journal.TransitionResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Several threads on one journal, and several journals (connections, as several gateway instances
 * would have) on one file: nothing is lost and every compare-and-set has exactly one winner.
 */
class ConcurrencyTest extends JournalTestBase {
  static final int THREADS = 6;
  static final int ACTIONS_PER_THREAD = 40;

  /** Runs every task at once (behind a start gate) and returns their results, rethrowing failures. */
  static <T> List<T> together(List<Callable<T>> tasks) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(tasks.size());
    try {
      CountDownLatch gate = new CountDownLatch(1);
      List<Future<T>> futures = new ArrayList<>();
      for (Callable<T> task : tasks) {
        futures.add(pool.submit(() -> {
          gate.await();
          return task.call();
        }));
      }
      gate.countDown();
      List<T> out = new ArrayList<>();
      for (Future<T> f : futures) {
        out.add(f.get(60, TimeUnit.SECONDS));
      }
      return out;
    } finally {
      pool.shutdownNow();
    }
  }

  /** Records, sends and answers one write per iteration: every step a separate durable commit. */
  static List<ActionId> writer(SqliteJournal j, String task) {
    List<ActionId> ids = new ArrayList<>();
    for (int i = 0; i < ACTIONS_PER_THREAD; i++) {
      ActionRecord a = j.recordAction(transfer(task, task + "-" + i).build());
      ActionRecord inFlight = j.transition(a.actionId(), ActionState.QUEUED, ActionState.IN_FLIGHT, ActionChanges.none(), at(1)).action();
      AttemptRecord attempt = j.startAttempt(a.actionId(), AttemptKind.SEND, at(1), inFlight.idempotencyKey());
      j.finishAttempt(a.actionId(), attempt.number(), AttemptEnd.response(201), at(2), Headers.empty());
      j.transition(a.actionId(), ActionState.IN_FLIGHT, ActionState.SUCCEEDED, ActionChanges.none().lastStatus(201), at(2));
      ids.add(a.actionId());
    }
    return ids;
  }

  @Test
  void threadsSharingOneJournalLoseNothing() throws Exception {
    List<Callable<List<ActionId>>> tasks = new ArrayList<>();
    for (int t = 0; t < THREADS; t++) {
      String task = "task-" + t;
      tasks.add(() -> writer(journal, task));
    }

    List<ActionId> all = together(tasks).stream().flatMap(List::stream).toList();

    assertThat(all).hasSize(THREADS * ACTIONS_PER_THREAD).doesNotHaveDuplicates();
    for (ActionId id : all) {
      ActionRecord r = journal.action(id).orElseThrow();
      assertThat(r.state()).isEqualTo(ActionState.SUCCEEDED);
      assertThat(r.attemptsUsed()).isEqualTo(1);
      assertThat(journal.attempts(id)).hasSize(1);
    }
  }

  @Test
  void journalsOnTheSameFileInterleaveWithoutLosingOrFailing() throws Exception {
    List<SqliteJournal> instances = new ArrayList<>();
    try {
      List<Callable<List<ActionId>>> tasks = new ArrayList<>();
      for (int t = 0; t < 3; t++) {
        SqliteJournal j = SqliteJournal.open(dataDir);
        instances.add(j);
        String task = "instance-" + t;
        tasks.add(() -> writer(j, task));
      }

      List<ActionId> all = together(tasks).stream().flatMap(List::stream).toList();

      assertThat(all).hasSize(3 * ACTIONS_PER_THREAD).doesNotHaveDuplicates();
      for (ActionId id : all) {
        assertThat(journal.action(id)).hasValueSatisfying(r -> assertThat(r.state()).isEqualTo(ActionState.SUCCEEDED));
      }
    } finally {
      instances.forEach(SqliteJournal::close);
    }
  }

  @Test
  void ofManyInstancesResumingTheSameUncertainWriteExactlyOneWins() throws Exception {
    List<SqliteJournal> instances = new ArrayList<>();
    try {
      for (int i = 0; i < 4; i++) {
        instances.add(SqliteJournal.open(dataDir));
      }
      for (int round = 0; round < 10; round++) {
        ActionRecord a = journal.recordAction(transfer("t", "k-" + round).build());
        finish(send(a, at(1)), AttemptEnd.abandoned(), at(2));
        move(reload(a), ActionState.OUTCOME_UNKNOWN);
        List<Callable<TransitionResult>> claims = new ArrayList<>();
        for (SqliteJournal j : instances) {
          for (int thread = 0; thread < 2; thread++) {
            claims.add(() -> j.transition(a.actionId(), ActionState.OUTCOME_UNKNOWN, ActionState.RECONCILING, ActionChanges.none(), at(3)));
          }
        }

        List<TransitionResult> results = together(claims);

        assertThat(results).filteredOn(TransitionResult::applied).as("round %d", round).hasSize(1);
        assertThat(results).allSatisfy(r -> assertThat(r.action().state()).isEqualTo(ActionState.RECONCILING));
        assertThat(reload(a).version()).isEqualTo(results.stream().filter(TransitionResult::applied).findFirst().orElseThrow().action().version());
      }
    } finally {
      instances.forEach(SqliteJournal::close);
    }
  }

  @Test
  void ofManyWorkersStartingTheSameSendOnlyOneGetsTheAttempt() throws Exception {
    ActionRecord a = move(journal.recordAction(transfer("t", "k").build()), ActionState.IN_FLIGHT);
    AtomicInteger refused = new AtomicInteger();
    Set<Integer> numbers = ConcurrentHashMap.newKeySet();
    List<Callable<Void>> starts = new ArrayList<>();
    for (int i = 0; i < THREADS; i++) {
      starts.add(() -> {
        try {
          numbers.add(journal.startAttempt(a.actionId(), AttemptKind.SEND, at(1), a.idempotencyKey()).number());
        } catch (IllegalTransitionException e) {
          refused.incrementAndGet();
        }
        return null;
      });
    }

    together(starts);

    assertThat(numbers).containsExactly(1);
    assertThat(refused).hasValue(THREADS - 1);
    assertThat(reload(a).attemptsUsed()).isEqualTo(1);
  }
}
