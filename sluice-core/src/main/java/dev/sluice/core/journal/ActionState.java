package dev.sluice.core.journal;

import java.util.EnumSet;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * Where a journaled action stands. The journal refuses every change of state this enum does not
 * allow ({@link #canBecome}), so an action can never, for instance, go from {@code outcome_unknown}
 * straight back to the queue and be sent a second time without a look-up.
 *
 * <table>
 *   <caption>Allowed changes (besides staying in the same non-terminal state)</caption>
 *   <tr><th>from</th><th>to</th><th>when</th></tr>
 *   <tr><td>queued</td><td>delayed, in_flight, failed, cancelled</td><td>held, sent, refused
 *       (backpressure, deadline, circuit), task cancelled</td></tr>
 *   <tr><td>delayed</td><td>queued, in_flight, failed, cancelled</td><td>due, sent, budget ran out
 *       while waiting, task cancelled</td></tr>
 *   <tr><td>in_flight</td><td>succeeded, failed, delayed, queued, outcome_unknown,
 *       cancelled</td><td>the attempt's answer (retry only when its outcome is known)</td></tr>
 *   <tr><td>outcome_unknown</td><td>reconciling, reconciliation_required</td><td>a look-up
 *       exists, or none does</td></tr>
 *   <tr><td>reconciling</td><td>succeeded, failed, queued, delayed,
 *       reconciliation_required</td><td>found; proven absent (resend with the same key); the
 *       look-up failed its budget</td></tr>
 *   <tr><td>reconciliation_required</td><td>escalated, reconciling</td><td>a person is asked; a
 *       look-up became possible</td></tr>
 *   <tr><td>queued, delayed, in_flight</td><td>escalated</td><td>stopped for a person: deadline or
 *       time budget, the scope's budget or the provider's quota exhausted, a circuit on a write</td></tr>
 *   <tr><td>escalated</td><td>reconciling, queued, succeeded, failed, cancelled</td><td>the
 *       operator's decision</td></tr>
 *   <tr><td>awaiting_approval</td><td>queued, cancelled</td><td>per-call approval: an operator
 *       approved or rejected it; nothing was sent before</td></tr>
 *   <tr><td>succeeded, failed, cancelled</td><td>nothing</td><td>terminal</td></tr>
 * </table>
 *
 * <p>Besides the table, the journal keeps two rules that depend on attempts: an action leaves
 * {@code in_flight} or {@code reconciling} only after its open attempt is finished, and a write
 * whose last attempt may have reached the provider without an answer (sent, then timeout, reset,
 * truncated response, or a process crash) leaves {@code in_flight} only to {@code outcome_unknown}.
 *
 * <p>Self-transitions (e.g. {@code delayed → delayed} with a later due time) are allowed in every
 * state that is not {@link #terminal()}: they change fields under the same compare-and-set.
 */
public enum ActionState {
  /** Waiting in its scope's queue, eligible from {@code due_at}. */
  QUEUED,
  /** Waiting for a retry (or a scope hold) until {@code due_at}. */
  DELAYED,
  /** An attempt is being sent, or was being sent when the process stopped. */
  IN_FLIGHT,
  /** A write was sent and no answer arrived: it must be looked up, never simply resent. */
  OUTCOME_UNKNOWN,
  /** A look-up (by idempotency key, external reference or operation id) is under way. */
  RECONCILING,
  /** Done: the provider answered with success, or reconciliation found the provider's record. */
  SUCCEEDED,
  /** Done without the effect: a terminal error, an exhausted budget, a refused request. */
  FAILED,
  /** A write's outcome is unknown and cannot be looked up automatically: it stopped here. */
  RECONCILIATION_REQUIRED,
  /** A person has been handed the decision (the escalation dossier exists). */
  ESCALATED,
  /** The task was cancelled, or an operator cancelled the action. */
  CANCELLED,
  /**
   * Per-call approval ({@code approval: per_call}): recorded before any send and held until an
   * operator approves (→ queued) or rejects (→ cancelled) it. Not {@link #open()}: a restart
   * leaves it waiting, it does not queue it.
   */
  AWAITING_APPROVAL;

  private static final Set<ActionState> OPEN = EnumSet.of(QUEUED, DELAYED, IN_FLIGHT, OUTCOME_UNKNOWN, RECONCILING);
  private static final Set<ActionState> TERMINAL = EnumSet.of(SUCCEEDED, FAILED, CANCELLED);

  /**
   * The states this one may move to, itself included when it is not terminal. Kept in one place
   * so that every {@link Journal} implementation enforces the same machine.
   */
  public Set<ActionState> successors() {
    return switch (this) {
      case QUEUED -> EnumSet.of(QUEUED, DELAYED, IN_FLIGHT, FAILED, CANCELLED, ESCALATED);
      case DELAYED -> EnumSet.of(DELAYED, QUEUED, IN_FLIGHT, FAILED, CANCELLED, ESCALATED);
      case IN_FLIGHT -> EnumSet.of(IN_FLIGHT, QUEUED, DELAYED, OUTCOME_UNKNOWN, SUCCEEDED, FAILED, CANCELLED, ESCALATED);
      // No way back to the queue from here except through a look-up (or a person's decision).
      case OUTCOME_UNKNOWN -> EnumSet.of(OUTCOME_UNKNOWN, RECONCILING, RECONCILIATION_REQUIRED);
      case RECONCILING -> EnumSet.of(RECONCILING, SUCCEEDED, FAILED, QUEUED, DELAYED, RECONCILIATION_REQUIRED);
      case RECONCILIATION_REQUIRED -> EnumSet.of(RECONCILIATION_REQUIRED, ESCALATED, RECONCILING);
      // The operator's decisions: query again, retry with the same key, cancel, or record the result.
      case ESCALATED -> EnumSet.of(ESCALATED, RECONCILING, QUEUED, CANCELLED, SUCCEEDED, FAILED);
      // Per-call approval: the operator's yes (queued, then sent) or no.
      case AWAITING_APPROVAL -> EnumSet.of(AWAITING_APPROVAL, QUEUED, CANCELLED);
      case SUCCEEDED, FAILED, CANCELLED -> EnumSet.noneOf(ActionState.class);
    };
  }

  /** Whether the table allows {@code this → next}. */
  public boolean canBecome(ActionState next) {
    return successors().contains(next);
  }

  /**
   * Whether the engine must pick the action up again after a restart: queued, delayed, in flight,
   * outcome unknown or reconciling.
   */
  public boolean open() {
    return OPEN.contains(this);
  }

  /** Whether nothing can change any more: succeeded, failed or cancelled. */
  public boolean terminal() {
    return TERMINAL.contains(this);
  }

  /** The states {@link Journal#openActions()} returns. */
  public static Set<ActionState> openStates() {
    return EnumSet.copyOf(OPEN);
  }

  /** snake_case, as stored and as shown to people. */
  public String code() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** Parses a {@link #code()}. */
  public static Optional<ActionState> fromCode(String code) {
    for (ActionState s : values()) {
      if (s.code().equals(code)) {
        return Optional.of(s);
      }
    }
    return Optional.empty();
  }
}
