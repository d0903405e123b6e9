package dev.sluice.core.journal;

import dev.sluice.core.escalation.Decision;
import dev.sluice.core.escalation.DecisionOption;
import dev.sluice.core.escalation.EscalationId;
import dev.sluice.core.escalation.EscalationState;
import dev.sluice.core.escalation.Trigger;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * An escalation as the journal holds it: the row behind a {@link dev.sluice.core.escalation.Escalation}
 * (whose dossier is built from the action's rows when read).
 *
 * @param id {@code E-<n>}
 * @param actionId the action that stopped (or is held)
 * @param trigger why a person is needed
 * @param detail the trigger's detail in words (no secrets)
 * @param state open, then decided once
 * @param createdAt when it was raised
 * @param options the options offered, in order
 * @param decision the decision, once recorded
 */
public record EscalationRecord(EscalationId id, ActionId actionId, Trigger trigger, String detail, EscalationState state, Instant createdAt,
    List<DecisionOption> options, Optional<Decision> decision) {
  public EscalationRecord {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(actionId, "actionId");
    Objects.requireNonNull(trigger, "trigger");
    Objects.requireNonNull(detail, "detail");
    Objects.requireNonNull(state, "state");
    Objects.requireNonNull(createdAt, "createdAt");
    options = List.copyOf(options);
    Objects.requireNonNull(decision, "decision");
    if ((state == EscalationState.DECIDED) != decision.isPresent()) {
      throw new IllegalArgumentException("a decided escalation has a decision, an open one has none");
    }
  }
}
