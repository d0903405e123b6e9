package dev.sluice.core.engine;

import java.time.Instant;
import java.util.Objects;

/**
 * A request waiting in a scope queue, as operators see it.
 *
 * @param actionId the action
 * @param taskId its task
 * @param method the HTTP method
 * @param target path and query
 * @param priority its priority
 * @param dueAt the earliest instant it may leave (gates may hold it longer)
 * @param nextAttempt the attempt number it will be sent as
 */
public record QueuedRequest(long actionId, String taskId, String method, String target, Priority priority, Instant dueAt, int nextAttempt) {
  public QueuedRequest {
    Objects.requireNonNull(taskId, "taskId");
    Objects.requireNonNull(method, "method");
    Objects.requireNonNull(target, "target");
    Objects.requireNonNull(priority, "priority");
    Objects.requireNonNull(dueAt, "dueAt");
  }
}
