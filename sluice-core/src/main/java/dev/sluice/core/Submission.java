package dev.sluice.core;

import dev.sluice.core.engine.Outcome;
import dev.sluice.core.journal.ActionId;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * A call handed to {@link Sluice#start}: the journal's id of its action, known as soon as the
 * action is durably recorded (before anything is sent), and the future of its terminal outcome.
 *
 * <p>{@code actionId} is empty when the call was not journaled: Sluice runs without a journal, the
 * call is a coalescible read of an immutable resource (those are never journaled), or it was
 * refused before it was recorded (the outcome is then already complete). With an id, {@link
 * Sluice#action} and {@link Sluice#attempts} read the action's durable state at any time, in this
 * process or after a restart, and {@link Sluice#pending} finds the live future while it runs.
 *
 * @param actionId the journal's id, when the action was journaled
 * @param outcome completes with the terminal outcome; never exceptionally for provider, budget or
 *     input reasons
 */
public record Submission(Optional<ActionId> actionId, CompletableFuture<Outcome> outcome) {
  public Submission {
    Objects.requireNonNull(actionId, "actionId");
    Objects.requireNonNull(outcome, "outcome");
  }

  static Submission unjournaled(CompletableFuture<Outcome> outcome) {
    return new Submission(Optional.empty(), outcome);
  }
}
