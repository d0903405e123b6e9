package dev.sluice.core.journal;

import java.util.Objects;

/**
 * What {@link Journal#transition} did. A lost compare-and-set is not an error: another worker (or
 * another gateway instance) moved the action first, and {@code action} shows what it did.
 *
 * @param applied whether this call changed the action
 * @param action the action as it stands after the call: the new row when applied, the row that won
 *     otherwise
 */
public record TransitionResult(boolean applied, ActionRecord action) {
  public TransitionResult {
    Objects.requireNonNull(action, "action");
  }

  public static TransitionResult applied(ActionRecord action) {
    return new TransitionResult(true, action);
  }

  public static TransitionResult conflict(ActionRecord current) {
    return new TransitionResult(false, current);
  }
}
