package dev.sluice.core.engine;

import dev.sluice.core.journal.ActionId;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * What the engine reports about journaled actions (those whose {@link ActionRequest#journalId()}
 * is present), so that a durable log can follow each action's state. Called under the engine's
 * lock, in the order the changes happen: implementations must not block (queue the work; a journal
 * commit with its fsync happens elsewhere). Attempt starts and ends are the transport's to record
 * (see {@link AttemptRequest#journalId()}). Default: {@link #NONE}, nothing recorded.
 */
public interface ActionLog {
  /** Records nothing. */
  ActionLog NONE = new ActionLog() {};

  /** The action waits to be sent (again) from {@code dueAt}: a retry, or a resend after a look-up proved no record. */
  default void waiting(ActionId id, Instant dueAt, Duration waited) {}

  /** The write's outcome is unknown and a look-up is queued from {@code dueAt}. */
  default void reconciling(ActionId id, Instant dueAt, Duration waited) {}

  /**
   * The action ended.
   *
   * @param operationId the provider's operation id, when a response named it
   */
  default void finished(ActionId id, OutcomeCode code, String reason, OptionalInt lastStatus, Duration waited, Optional<String> operationId) {}
}
