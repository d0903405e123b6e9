package dev.sluice.core.journal;

import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * What {@link Journal#cancelTask} did.
 *
 * @param taskId the task
 * @param cancelledAt when the task was first cancelled (an earlier cancellation keeps its time)
 * @param alreadyCancelled whether the task was cancelled before this call
 * @param cancelledActions the task's queued and delayed actions this call moved to {@code
 *     cancelled}; actions in flight or being reconciled are left to finish, since their effect may
 *     already exist
 */
public record TaskCancellation(String taskId, Instant cancelledAt, boolean alreadyCancelled, List<ActionId> cancelledActions) {
  public TaskCancellation {
    Objects.requireNonNull(taskId, "taskId");
    Objects.requireNonNull(cancelledAt, "cancelledAt");
    cancelledActions = List.copyOf(cancelledActions);
  }
}
