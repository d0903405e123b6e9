package dev.sluice.core.journal;

import dev.sluice.core.engine.OutcomeCode;
import dev.sluice.core.engine.Priority;
import dev.sluice.core.http.Headers;
import dev.sluice.core.policy.RequestClass;
import dev.sluice.core.scope.ScopeId;
import dev.sluice.core.journal.internal.Methods;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * One logical action as the journal holds it. Immutable; every change goes through {@link
 * Journal#transition} (state and the fields of {@link ActionChanges}) or {@link
 * Journal#startAttempt} ({@code attemptsUsed}). What identifies the action and what is sent —
 * task, route, method, target, headers, payload, idempotency key, external reference — never
 * changes after {@link Journal#recordAction}: a retry can never carry a new key.
 *
 * <p>Instants are kept to the microsecond.
 *
 * @param actionId the journal's id
 * @param taskId the agent's task run
 * @param priority interactive or background
 * @param scope the provider and shared scope
 * @param routeTemplate the configured route path
 * @param method the HTTP method
 * @param target the origin-form target (path and query)
 * @param requestClass the class and budget the action was recorded with
 * @param headers the header fields sent with every attempt
 * @param payloadDigest lower-case hex SHA-256 of the whole payload, kept even when the bytes are not
 * @param payloadSize the payload's length in bytes
 * @param payloadKept whether {@code payload} holds the bytes (false when they exceeded the
 *     journal's cap: such an action cannot be resent after a restart and must be escalated)
 * @param payload the payload bytes, empty when not kept
 * @param idempotencyKey the key sent on every attempt
 * @param externalReference the client reference written into the payload
 * @param providerOperationId the provider's id for the operation, once a response named it
 * @param state where the action stands
 * @param createdAt when it was recorded
 * @param dueAt when it may next leave (for queued and delayed actions; kept as last set otherwise)
 * @param updatedAt when the row last changed
 * @param attemptsUsed sends that reached the transport (look-ups not included)
 * @param waited time spent waiting in Sluice, never decreasing
 * @param deadline the task's deadline
 * @param lastStatus the last HTTP status received
 * @param outcome the terminal outcome, for succeeded, failed, cancelled, reconciliation_required
 *     and escalated; empty while the action is open
 * @param reason why it ended that way, in words
 * @param version incremented by every change; a finer compare-and-set token than the state
 */
public record ActionRecord(
    ActionId actionId,
    String taskId,
    Priority priority,
    ScopeId scope,
    String routeTemplate,
    String method,
    String target,
    RequestClass requestClass,
    Headers headers,
    String payloadDigest,
    long payloadSize,
    boolean payloadKept,
    byte[] payload,
    Optional<String> idempotencyKey,
    Optional<String> externalReference,
    Optional<String> providerOperationId,
    ActionState state,
    Instant createdAt,
    Instant dueAt,
    Instant updatedAt,
    int attemptsUsed,
    Duration waited,
    Optional<Instant> deadline,
    OptionalInt lastStatus,
    Optional<OutcomeCode> outcome,
    Optional<String> reason,
    long version) {

  public ActionRecord {
    Objects.requireNonNull(actionId, "actionId");
    Objects.requireNonNull(taskId, "taskId");
    Objects.requireNonNull(priority, "priority");
    Objects.requireNonNull(scope, "scope");
    Objects.requireNonNull(routeTemplate, "routeTemplate");
    Objects.requireNonNull(method, "method");
    Objects.requireNonNull(target, "target");
    Objects.requireNonNull(requestClass, "requestClass");
    Objects.requireNonNull(headers, "headers");
    Objects.requireNonNull(payloadDigest, "payloadDigest");
    payload = payload == null ? new byte[0] : payload.clone();
    Objects.requireNonNull(idempotencyKey, "idempotencyKey");
    Objects.requireNonNull(externalReference, "externalReference");
    Objects.requireNonNull(providerOperationId, "providerOperationId");
    Objects.requireNonNull(state, "state");
    Objects.requireNonNull(createdAt, "createdAt");
    Objects.requireNonNull(dueAt, "dueAt");
    Objects.requireNonNull(updatedAt, "updatedAt");
    Objects.requireNonNull(waited, "waited");
    Objects.requireNonNull(deadline, "deadline");
    Objects.requireNonNull(lastStatus, "lastStatus");
    Objects.requireNonNull(outcome, "outcome");
    Objects.requireNonNull(reason, "reason");
    if (!payloadKept && payload.length > 0) {
      throw new IllegalArgumentException("a payload that was not kept has no bytes");
    }
    if (payloadKept && payload.length != payloadSize) {
      throw new IllegalArgumentException("payload size " + payloadSize + " does not match the " + payload.length + " bytes kept");
    }
    if (attemptsUsed < 0) {
      throw new IllegalArgumentException("attempts used cannot be negative: " + attemptsUsed);
    }
  }

  /** Whether the method may change state at the provider: anything but GET, HEAD, OPTIONS, TRACE. */
  public boolean write() {
    return Methods.isWrite(method);
  }

  /** The payload bytes, when kept. */
  public Optional<byte[]> keptPayload() {
    return payloadKept ? Optional.of(payload.clone()) : Optional.empty();
  }

  @Override
  public byte[] payload() {
    return payload.clone();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof ActionRecord a && a.actionId.equals(actionId) && a.taskId.equals(taskId) && a.priority == priority
        && a.scope.equals(scope) && a.routeTemplate.equals(routeTemplate) && a.method.equals(method) && a.target.equals(target)
        && a.requestClass.equals(requestClass) && a.headers.equals(headers) && a.payloadDigest.equals(payloadDigest)
        && a.payloadSize == payloadSize && a.payloadKept == payloadKept && Arrays.equals(a.payload, payload)
        && a.idempotencyKey.equals(idempotencyKey) && a.externalReference.equals(externalReference)
        && a.providerOperationId.equals(providerOperationId) && a.state == state && a.createdAt.equals(createdAt) && a.dueAt.equals(dueAt)
        && a.updatedAt.equals(updatedAt) && a.attemptsUsed == attemptsUsed && a.waited.equals(waited) && a.deadline.equals(deadline)
        && a.lastStatus.equals(lastStatus) && a.outcome.equals(outcome) && a.reason.equals(reason) && a.version == version;
  }

  @Override
  public int hashCode() {
    return Objects.hash(actionId, state, version);
  }

  @Override
  public String toString() {
    // No headers, payload or key: toString ends up in logs and error messages.
    return "ActionRecord[" + actionId + " task " + taskId + " " + method + " " + routeTemplate + " on " + scope + ", " + state.code()
        + ", attempts " + attemptsUsed + ", v" + version + "]";
  }
}
