package dev.sluice.mcp.internal;

import dev.sluice.core.Sluice;
import dev.sluice.core.engine.OutcomeCode;
import dev.sluice.core.escalation.Escalation;
import dev.sluice.core.journal.ActionId;
import dev.sluice.core.journal.ActionState;
import java.util.Comparator;
import java.util.Optional;

/**
 * The one place where Sluice's action states and outcome codes become the {@code state} an MCP
 * client sees — {@code done}, {@code delayed} or {@code awaiting_approval} — and where an action's
 * escalation id is found.
 *
 * <p>Approval: routes with {@code approval: per_call} are held by the engine before anything is
 * sent (journal state {@code awaiting_approval}, an {@code approval_required} escalation). The
 * model sees {@link #AWAITING_APPROVAL} with the escalation's id; no tool can decide it — only an
 * operator ({@code Sluice#decide}, {@code POST /v1/escalations/{id}/decision}, {@code sluice decide}).
 */
public final class McpStates {
  /** The outcome is final. */
  public static final String DONE = "done";
  /** Not finished yet: queued, waiting for a scope hold or a retry, in flight, or being reconciled. */
  public static final String DELAYED = "delayed";
  /** Held for an operator's approval of this one call; not sent. */
  public static final String AWAITING_APPROVAL = "awaiting_approval";

  private McpStates() {}

  /** The MCP state of an action not finished yet, from its journal state (empty: not journaled). */
  public static String forPending(Optional<ActionState> journalState) {
    return journalState.filter(s -> s == ActionState.AWAITING_APPROVAL).isPresent() ? AWAITING_APPROVAL : DELAYED;
  }

  /** The MCP state of a finished action. */
  public static String forOutcome(OutcomeCode code) {
    return DONE;
  }

  /**
   * The escalation that holds (or held) a decision about this journaled action: its open one if
   * there is one, else the latest one raised for it; empty when none was raised (or no journal).
   * A scope-wide escalation raised for another action of the same scope is not this action's.
   */
  public static Optional<Escalation> escalation(Sluice sluice, Optional<ActionId> journalId) {
    if (journalId.isEmpty()) {
      return Optional.empty();
    }
    return sluice.escalationsOf(journalId.get()).stream()
        .max(Comparator.comparing(Escalation::open).thenComparing(Escalation::createdAt));
  }
}
