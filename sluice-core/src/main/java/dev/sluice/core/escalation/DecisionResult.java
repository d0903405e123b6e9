package dev.sluice.core.escalation;

import dev.sluice.core.engine.Outcome;
import dev.sluice.core.journal.ActionId;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * What a recorded decision set going.
 *
 * @param escalation the escalation, now decided
 * @param actionId the action that carries the decision out: the same one (query, retry, approve),
 *     or the new one of {@link DecisionOption#SEND_NEW}; empty when nothing is sent
 * @param outcome that action's outcome, when something is sent (already complete for cancel and reject)
 */
public record DecisionResult(Escalation escalation, Optional<ActionId> actionId, Optional<CompletableFuture<Outcome>> outcome) {
  public DecisionResult {
    Objects.requireNonNull(escalation, "escalation");
    Objects.requireNonNull(actionId, "actionId");
    Objects.requireNonNull(outcome, "outcome");
  }
}
