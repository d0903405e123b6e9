package dev.sluice.core.engine;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * Limits on a whole task run, on top of each action's request-class budget. Default: none.
 *
 * @param deadline no action of the task is sent or waits past this instant; an action that would
 *     ends with {@code deadline_exceeded}
 * @param maxAttempts the most attempts all the task's actions together may send
 */
public record TaskBudget(Optional<Instant> deadline, OptionalInt maxAttempts) {
  /** No task-level limit. */
  public static final TaskBudget NONE = new TaskBudget(Optional.empty(), OptionalInt.empty());

  public TaskBudget {
    Objects.requireNonNull(deadline, "deadline");
    Objects.requireNonNull(maxAttempts, "maxAttempts");
    if (maxAttempts.isPresent() && maxAttempts.getAsInt() < 1) {
      throw new IllegalArgumentException("a task's max attempts must be at least 1, got " + maxAttempts.getAsInt());
    }
  }

  public static TaskBudget deadline(Instant deadline) {
    return new TaskBudget(Optional.of(deadline), OptionalInt.empty());
  }
}
