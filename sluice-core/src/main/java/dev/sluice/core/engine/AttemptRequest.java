package dev.sluice.core.engine;

import dev.sluice.core.http.Headers;
import dev.sluice.core.journal.ActionId;
import dev.sluice.core.scope.ScopeId;
import java.util.Arrays;
import java.util.Objects;
import java.util.Optional;

/**
 * One transport attempt of an action, as handed to {@link Transport#send}. The transport adds the
 * credential and the idempotency header (if the provider has one) and resolves {@code target}
 * against the provider's base URL.
 *
 * @param actionId the engine's id for the logical action (stable across attempts)
 * @param taskId the task that owns the action
 * @param scope the provider and scope
 * @param method the HTTP method
 * @param target origin-form path and query
 * @param headers the agent's header fields
 * @param body the body bytes
 * @param attempt 1 for the first send, 2 for the first retry, ...
 * @param idempotencyKey the action's key, the same on every attempt (none on a look-up)
 * @param lookup whether this is a reconciliation look-up (a GET or HEAD naming the action) rather
 *     than a send of the action itself
 * @param journalId the action's journal id when it is journaled: a journaling transport records
 *     the attempt's start (durably, before sending) and end under it
 * @param requestClass the name of the action's request class ({@code unknown} when the caller did
 *     not say), for metrics: a look-up carries the class of the action it looks up
 */
public record AttemptRequest(
    long actionId, String taskId, ScopeId scope, String method, String target, Headers headers, byte[] body, int attempt,
    Optional<String> idempotencyKey,
    boolean lookup,
    Optional<ActionId> journalId,
    String requestClass) {
  public AttemptRequest {
    Objects.requireNonNull(requestClass, "requestClass");
    Objects.requireNonNull(journalId, "journalId");
    Objects.requireNonNull(taskId, "taskId");
    Objects.requireNonNull(scope, "scope");
    Objects.requireNonNull(method, "method");
    Objects.requireNonNull(target, "target");
    Objects.requireNonNull(headers, "headers");
    body = body == null ? new byte[0] : body.clone();
    Objects.requireNonNull(idempotencyKey, "idempotencyKey");
    if (attempt < 1) {
      throw new IllegalArgumentException("attempt numbers start at 1, got " + attempt);
    }
  }

  /** An attempt whose request class is not named ({@code unknown}). */
  public AttemptRequest(long actionId, String taskId, ScopeId scope, String method, String target, Headers headers, byte[] body, int attempt,
      Optional<String> idempotencyKey, boolean lookup, Optional<ActionId> journalId) {
    this(actionId, taskId, scope, method, target, headers, body, attempt, idempotencyKey, lookup, journalId, "unknown");
  }

  /** A send of the action itself, not journaled. */
  public AttemptRequest(long actionId, String taskId, ScopeId scope, String method, String target, Headers headers, byte[] body, int attempt,
      Optional<String> idempotencyKey) {
    this(actionId, taskId, scope, method, target, headers, body, attempt, idempotencyKey, false, Optional.empty());
  }

  @Override
  public byte[] body() {
    return body.clone();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof AttemptRequest a && a.actionId == actionId && a.attempt == attempt && a.taskId.equals(taskId) && a.scope.equals(scope)
        && a.method.equals(method) && a.target.equals(target) && a.headers.equals(headers) && Arrays.equals(a.body, body)
        && a.idempotencyKey.equals(idempotencyKey) && a.lookup == lookup && a.journalId.equals(journalId) && a.requestClass.equals(requestClass);
  }

  @Override
  public int hashCode() {
    return Objects.hash(actionId, attempt);
  }

  @Override
  public String toString() {
    return "AttemptRequest[action " + actionId + " #" + attempt + (lookup ? " look-up " : " ") + taskId + " " + method + " " + target + " on " + scope + "]";
  }
}
