package dev.sluice.core.journal;

import dev.sluice.core.engine.OutcomeCode;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * The fields a {@link Journal#transition} changes along with the state; an empty field is left as
 * it is. Immutable; start from {@link #none()} and chain.
 *
 * <p>Rules the journal checks: entering {@code delayed} needs a {@code dueAt}; {@code waited} is the
 * new total and never decreases; {@code failed} needs an {@code outcome} other than {@code
 * succeeded}. The outcome of {@code succeeded}, {@code cancelled}, {@code
 * reconciliation_required} and {@code escalated} defaults to the matching {@link OutcomeCode};
 * an open state has no outcome. A change of state clears the reason unless a new one is given.
 *
 * @param dueAt when the action may next leave
 * @param waited the total time waited so far
 * @param lastStatus the last HTTP status received
 * @param outcome the terminal outcome
 * @param reason why, in words (no secrets: it is shown to agents and operators)
 * @param providerOperationId the provider's id for the operation, captured from a response
 */
public record ActionChanges(
    Optional<Instant> dueAt,
    Optional<Duration> waited,
    OptionalInt lastStatus,
    Optional<OutcomeCode> outcome,
    Optional<String> reason,
    Optional<String> providerOperationId) {

  private static final ActionChanges NONE =
      new ActionChanges(Optional.empty(), Optional.empty(), OptionalInt.empty(), Optional.empty(), Optional.empty(), Optional.empty());

  public ActionChanges {
    Objects.requireNonNull(dueAt, "dueAt");
    Objects.requireNonNull(waited, "waited");
    Objects.requireNonNull(lastStatus, "lastStatus");
    Objects.requireNonNull(outcome, "outcome");
    Objects.requireNonNull(reason, "reason");
    Objects.requireNonNull(providerOperationId, "providerOperationId");
    if (waited.isPresent() && waited.get().isNegative()) {
      throw new IllegalArgumentException("waited time cannot be negative: " + waited.get());
    }
    if (lastStatus.isPresent() && (lastStatus.getAsInt() < 100 || lastStatus.getAsInt() > 599)) {
      throw new IllegalArgumentException("an HTTP status lies in 100-599, got " + lastStatus.getAsInt());
    }
    if (providerOperationId.isPresent() && (providerOperationId.get().isEmpty() || providerOperationId.get().length() > 512)) {
      throw new IllegalArgumentException("a provider operation id must be 1-512 characters");
    }
  }

  /** No field changes: only the state moves. */
  public static ActionChanges none() {
    return NONE;
  }

  public ActionChanges dueAt(Instant value) {
    return new ActionChanges(Optional.of(value), waited, lastStatus, outcome, reason, providerOperationId);
  }

  public ActionChanges waited(Duration total) {
    return new ActionChanges(dueAt, Optional.of(total), lastStatus, outcome, reason, providerOperationId);
  }

  public ActionChanges lastStatus(int status) {
    return new ActionChanges(dueAt, waited, OptionalInt.of(status), outcome, reason, providerOperationId);
  }

  public ActionChanges outcome(OutcomeCode value) {
    return new ActionChanges(dueAt, waited, lastStatus, Optional.of(value), reason, providerOperationId);
  }

  public ActionChanges reason(String value) {
    return new ActionChanges(dueAt, waited, lastStatus, outcome, Optional.of(value), providerOperationId);
  }

  public ActionChanges providerOperationId(String value) {
    return new ActionChanges(dueAt, waited, lastStatus, outcome, reason, Optional.of(value));
  }
}
