package dev.sluice.core.journal;

import dev.sluice.core.http.Headers;
import dev.sluice.core.scope.ScopeRecord;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * The durable record of every logical action and each of its attempts, of cancelled tasks and of
 * scope state (DESIGN.md §2, §3 rules 7 and 11, §5). What makes a write safe to send is a journal
 * row holding its idempotency key and payload, committed before the first byte leaves.
 *
 * <p>Contract every implementation keeps (the embedded SQLite one, {@code
 * dev.sluice.store.sqlite.SqliteJournal}, and a later PostgreSQL one):
 *
 * <ul>
 *   <li><b>Durability.</b> When a method that changes a <em>write</em> action (any method but GET,
 *       HEAD, OPTIONS, TRACE) returns, the change survives a process crash and a power loss.
 *       {@link #cancelTask} is durable the same way. Changes to read actions and {@link #saveScope}
 *       survive a process crash; a power loss may lose the last of them, which costs at most a
 *       repeated read or a repeated 429.
 *   <li><b>One state machine.</b> {@link #transition} enforces {@link ActionState}'s table and the
 *       attempt rules stated there, and throws {@link IllegalTransitionException} on a violation.
 *   <li><b>Compare-and-set.</b> A transition applies only if the action is still in the state the
 *       caller names, atomically across threads, connections and processes; of two gateway
 *       instances resuming the same action, exactly one wins.
 *   <li><b>Stable keys.</b> An action's idempotency key, external reference and payload never change
 *       after {@link #recordAction}; every {@link AttemptKind#SEND} must carry that same key.
 *   <li><b>Time is passed in</b>; the journal never reads a clock. Instants are kept to the
 *       microsecond (PostgreSQL's precision), so a record read back may be truncated.
 *   <li><b>No secrets.</b> Messages and {@code toString} never show payloads, headers or keys.
 * </ul>
 *
 * <p>Restart recovery with a journal: for each of {@link #openActions()} — queued and delayed
 * actions go back to their queues with their due times and budgets; an action {@code in_flight}
 * gets its open attempt finished as {@link AttemptEnd#abandoned()} and then, being a write whose
 * outcome is unknown, moves to {@code outcome_unknown} (a read may go back to {@code queued}, and
 * so may a write with no open attempt: the journal shows its send never started);
 * {@code outcome_unknown} and {@code reconciling} actions resume reconciliation with their
 * original key. Every move is a {@link #transition} from the state read, so a second instance
 * doing the same finds it lost the race.
 *
 * <p>Implementations are thread-safe.
 */
public interface Journal extends AutoCloseable {

  /**
   * Records a new action, queued or delayed, and returns it with its new {@link ActionId}. For a
   * write the row is durable (power-loss safe) when this returns: call it before the first send.
   *
   * @throws DuplicateIdempotencyKeyException when another action of the same provider holds the
   *     idempotency key
   */
  ActionRecord recordAction(NewAction action);

  /** The action, if the journal has it. */
  Optional<ActionRecord> action(ActionId id);

  /** The action of this provider holding this idempotency key, if any. */
  Optional<ActionRecord> actionByIdempotencyKey(String provider, String idempotencyKey);

  /**
   * Every action in an {@link ActionState#open()} state (queued, delayed, in flight, outcome
   * unknown, reconciling), ordered by due time, then creation, then id: what a restarted engine
   * resumes.
   */
  List<ActionRecord> openActions();

  /**
   * Moves the action from {@code from} to {@code to} and applies {@code changes}, if and only if it
   * is still in {@code from}.
   *
   * @param at when the change happens (the row's {@code updated_at})
   * @return applied with the new row, or not applied with the row as another caller left it
   * @throws IllegalTransitionException when {@code from → to} is not allowed, the action has an open
   *     attempt it would leave behind, a write with an unanswered attempt would be queued again,
   *     or {@code changes} break a rule of {@link ActionChanges}
   * @throws java.util.NoSuchElementException when there is no such action
   */
  TransitionResult transition(ActionId id, ActionState from, ActionState to, ActionChanges changes, Instant at);

  /**
   * Records that an attempt is being handed to the transport, numbered after the action's last
   * one. A {@link AttemptKind#SEND} needs the action {@code in_flight}, carries exactly the
   * action's idempotency key and adds one to {@code attemptsUsed}; a {@link AttemptKind#LOOKUP}
   * needs it {@code reconciling}. Only one attempt of an action may be open at a time.
   *
   * @throws IllegalTransitionException when one of those rules is broken
   * @throws java.util.NoSuchElementException when there is no such action
   */
  AttemptRecord startAttempt(ActionId id, AttemptKind kind, Instant startedAt, Optional<String> idempotencyKeySent);

  /**
   * Records how the open attempt {@code number} ended. Of {@code responseHeaders} only {@code
   * Retry-After}, {@code retry-after-ms} and the rate-limit fields Sluice reads are kept.
   *
   * @throws IllegalStateException when the attempt is not the action's open attempt
   * @throws java.util.NoSuchElementException when there is no such action or attempt
   */
  AttemptRecord finishAttempt(ActionId id, int number, AttemptEnd end, Instant finishedAt, Headers responseHeaders);

  /** The action's attempts in order; empty for an unknown action. */
  List<AttemptRecord> attempts(ActionId id);

  /**
   * Cancels the task for good: it stays cancelled across restarts, and its queued and delayed
   * actions move to {@code cancelled} in the same durable commit. Idempotent.
   */
  TaskCancellation cancelTask(String taskId, Instant at);

  /** Whether the task was ever cancelled. */
  boolean isCancelled(String taskId);

  /** Stores the scope's record, replacing the previous one of the same provider and scope. */
  void saveScope(ScopeRecord record);

  /** Every stored scope record, ordered by provider then scope. */
  List<ScopeRecord> scopes();

  // ---------------------------------------------------------------- escalations (issue 7)

  /**
   * Records an escalation, durably (power-loss safe), and returns it with its id. When the action
   * already has an open escalation, that one is returned and nothing is recorded.
   *
   * @throws java.util.NoSuchElementException when there is no such action
   */
  EscalationRecord recordEscalation(NewEscalation escalation);

  /** The escalation, if the journal has it. */
  Optional<EscalationRecord> escalation(dev.sluice.core.escalation.EscalationId id);

  /** Every escalation, oldest first. */
  List<EscalationRecord> escalations();

  /**
   * Records the decision on an open escalation (compare-and-set: of two operators deciding at
   * once, exactly one wins), durably.
   *
   * @throws IllegalStateException when the escalation is already decided
   * @throws java.util.NoSuchElementException when there is no such escalation
   */
  EscalationRecord decide(dev.sluice.core.escalation.EscalationId id, dev.sluice.core.escalation.Decision decision);

  /** Keeps the task's stated goal (the first one given wins; at most 500 characters). */
  void recordTaskGoal(String taskId, String goal);

  /** The task's stated goal, if one was given. */
  Optional<String> taskGoal(String taskId);

  /** Releases the database. Further calls throw {@link IllegalStateException}. */
  @Override
  void close();
}
