package dev.sluice.core.journal.internal;

import dev.sluice.core.engine.OutcomeCode;
import dev.sluice.core.journal.ActionChanges;
import dev.sluice.core.journal.ActionRecord;
import dev.sluice.core.journal.ActionState;
import dev.sluice.core.journal.AttemptKind;
import dev.sluice.core.journal.AttemptRecord;
import dev.sluice.core.journal.IllegalTransitionException;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * The state machine's rules, shared by every {@link dev.sluice.core.journal.Journal} implementation so
 * that SQLite and PostgreSQL refuse exactly the same things. Pure: the store reads the row and the
 * latest attempt under its lock, asks here, and writes what comes back.
 */
public final class TransitionRules {
  private TransitionRules() {}

  /** Refuses a change the table forbids, whatever state the action is in now. */
  public static void checkTable(ActionState from, ActionState to) {
    if (!from.canBecome(to)) {
      throw new IllegalTransitionException("an action cannot go from " + from.code() + " to " + to.code() + " (allowed from " + from.code()
          + ": " + codes(from) + ")");
    }
  }

  /**
   * The row after {@code current → to} with {@code changes}, or an {@link
   * IllegalTransitionException} saying which rule forbids it. {@code current.state()} must be the
   * caller's expected state (the compare-and-set already passed).
   *
   * @param latest the action's highest-numbered attempt, if any
   */
  public static ActionRecord apply(ActionRecord current, ActionState to, ActionChanges changes, Optional<AttemptRecord> latest, Instant at) {
    ActionState from = current.state();
    checkTable(from, to);
    String who = "action " + current.actionId() + " (" + from.code() + " → " + to.code() + ")";
    boolean leaving = from != to;
    if (leaving && (from == ActionState.IN_FLIGHT || from == ActionState.RECONCILING) && latest.isPresent() && !latest.get().finished()) {
      throw new IllegalTransitionException(who + ": attempt " + latest.get().number() + " is still open; finish it first (abandoned, if the"
          + " process that sent it is gone)");
    }
    if (leaving && from == ActionState.IN_FLIGHT && to != ActionState.OUTCOME_UNKNOWN && current.write() && latest.isPresent()
        && latest.get().kind() == AttemptKind.SEND && latest.get().outcomeUnknown()) {
      throw new IllegalTransitionException(who + ": the write's attempt " + latest.get().number() + " may have reached the provider ("
          + latest.get().end().orElseThrow().code() + ", no response); it can only go to outcome_unknown and be looked up");
    }
    if (to == ActionState.DELAYED && leaving && changes.dueAt().isEmpty()) {
      throw new IllegalTransitionException(who + ": a delayed action needs a due time");
    }
    Duration waited = current.waited();
    if (changes.waited().isPresent()) {
      if (changes.waited().get().compareTo(current.waited()) < 0) {
        throw new IllegalTransitionException(who + ": waited time never decreases (" + current.waited() + " recorded, " + changes.waited().get()
            + " given)");
      }
      waited = changes.waited().get();
    }
    Optional<String> operationId = current.providerOperationId();
    if (changes.providerOperationId().isPresent()) {
      if (operationId.isPresent() && !operationId.equals(changes.providerOperationId())) {
        throw new IllegalTransitionException(who + ": the provider operation id is already recorded and cannot change");
      }
      operationId = changes.providerOperationId();
    }
    Optional<OutcomeCode> outcome = outcome(who, current, to, changes.outcome());
    Optional<String> reason = changes.reason().isPresent() ? changes.reason() : leaving ? Optional.empty() : current.reason();
    OptionalInt lastStatus = changes.lastStatus().isPresent() ? changes.lastStatus() : current.lastStatus();
    Instant dueAt = changes.dueAt().orElse(current.dueAt());
    return new ActionRecord(current.actionId(), current.taskId(), current.priority(), current.scope(), current.routeTemplate(), current.method(),
        current.target(), current.requestClass(), current.headers(), current.payloadDigest(), current.payloadSize(), current.payloadKept(),
        current.payload(), current.idempotencyKey(), current.externalReference(), operationId, to, current.createdAt(), dueAt, at,
        current.attemptsUsed(), waited, current.deadline(), lastStatus, outcome, reason, current.version() + 1);
  }

  private static Optional<OutcomeCode> outcome(String who, ActionRecord current, ActionState to, Optional<OutcomeCode> given) {
    if (to.open()) {
      if (given.isPresent()) {
        throw new IllegalTransitionException(who + ": an open action has no outcome yet (got " + given.get().code() + ")");
      }
      return Optional.empty();
    }
    OutcomeCode fixed = switch (to) {
      case SUCCEEDED -> OutcomeCode.SUCCEEDED;
      case CANCELLED -> OutcomeCode.CANCELLED;
      case RECONCILIATION_REQUIRED -> OutcomeCode.RECONCILIATION_REQUIRED;
      case ESCALATED -> OutcomeCode.ESCALATED;
      default -> null;
    };
    if (fixed != null) {
      if (given.isPresent() && given.get() != fixed) {
        throw new IllegalTransitionException(who + ": the outcome of " + to.code() + " is " + fixed.code() + ", not " + given.get().code());
      }
      return Optional.of(fixed);
    }
    // FAILED: the caller says which failure.
    if (given.isEmpty()) {
      return current.state() == to ? current.outcome() : failWithout(who);
    }
    if (given.get() == OutcomeCode.SUCCEEDED) {
      throw new IllegalTransitionException(who + ": a failed action cannot have the outcome succeeded");
    }
    return given;
  }

  private static Optional<OutcomeCode> failWithout(String who) {
    throw new IllegalTransitionException(who + ": a failed action needs an outcome code saying why (budget_exhausted, client_error, …)");
  }

  private static String codes(ActionState from) {
    if (from.terminal()) {
      return "nothing, it is terminal";
    }
    StringBuilder b = new StringBuilder();
    for (ActionState s : ActionState.values()) {
      if (from.canBecome(s)) {
        b.append(b.isEmpty() ? "" : ", ").append(s.code());
      }
    }
    return b.toString();
  }
}
