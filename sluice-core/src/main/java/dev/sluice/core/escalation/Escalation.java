package dev.sluice.core.escalation;

import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One hand-over to a person: why ({@link Trigger} and the detail in words), the {@link Dossier},
 * the options that are safe now with their risks, and — once decided — the {@link Decision}.
 * Persisted in the journal; survives a restart.
 *
 * @param id {@code E-<n>}
 * @param trigger why a person is needed
 * @param detail the trigger's detail in words (the engine's reason)
 * @param state open until decided
 * @param createdAt when it was raised
 * @param dossier what the person decides from
 * @param options what may be decided, with the risk of each
 * @param decision the decision, once recorded
 */
public record Escalation(EscalationId id, Trigger trigger, String detail, EscalationState state, Instant createdAt, Dossier dossier,
    List<Option> options, Optional<Decision> decision) {
  public Escalation {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(trigger, "trigger");
    Objects.requireNonNull(detail, "detail");
    Objects.requireNonNull(state, "state");
    Objects.requireNonNull(createdAt, "createdAt");
    Objects.requireNonNull(dossier, "dossier");
    options = List.copyOf(options);
    Objects.requireNonNull(decision, "decision");
  }

  /** Whether a decision is still awaited. */
  public boolean open() {
    return state == EscalationState.OPEN;
  }

  /** The offered option of that kind, if offered. */
  public Optional<Option> option(DecisionOption o) {
    return options.stream().filter(x -> x.option() == o).findFirst();
  }
}
