package dev.sluice.mcp.internal;

import dev.sluice.core.engine.OutcomeCode;
import dev.sluice.core.journal.ActionState;
import dev.sluice.core.policy.Approval;
import dev.sluice.core.policy.Route;
import java.util.Optional;

/**
 * The one place where Sluice's action states and outcome codes become the {@code state} an MCP
 * client sees: {@code done}, {@code delayed} or {@code awaiting_approval}.
 *
 * <p><b>Approval mapping point.</b> Routes with {@code approval: per_call} hold each action for an
 * operator before it is sent; the model must see {@code state: awaiting_approval} with the
 * escalation id and must never be able to approve itself. The engine does not hold such actions
 * yet (the escalation work adds it). When it does, {@link #forPending} and {@link #escalationId}
 * are what changes here: map the held action state to {@link #AWAITING_APPROVAL} and return the
 * escalation's id; the tools, schemas and texts already carry both. Until then {@link
 * #approvalUnavailable} makes {@code http_request} refuse such routes with nothing sent, rather
 * than send a call nobody approved.
 */
public final class McpStates {
  /** The outcome is final. */
  public static final String DONE = "done";
  /** Not finished yet: queued, waiting for a scope hold or a retry, in flight, or being reconciled. */
  public static final String DELAYED = "delayed";
  /** Held for an operator's approval of this one call; not sent. */
  public static final String AWAITING_APPROVAL = "awaiting_approval";

  private McpStates() {}

  /**
   * Whether a call on this route must be refused because it needs a per-call approval the engine
   * cannot hold yet. Approval mapping point: false once the engine holds such actions.
   */
  public static boolean approvalUnavailable(Route route) {
    return route.approval() == Approval.PER_CALL;
  }

  /** The MCP state of an action not finished yet, from its journal state (empty: not journaled). */
  public static String forPending(Optional<ActionState> journalState) {
    // Approval mapping point: a journal state for "held for approval" maps to AWAITING_APPROVAL here.
    return DELAYED;
  }

  /** The MCP state of a finished action. */
  public static String forOutcome(OutcomeCode code) {
    return DONE;
  }

  /**
   * The escalation that holds a decision about this action, when there is one. Always empty until
   * the engine records escalations with ids (see the class comment).
   */
  public static Optional<String> escalationId(Optional<ActionState> journalState, Optional<OutcomeCode> outcome) {
    return Optional.empty();
  }
}
