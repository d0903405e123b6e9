package dev.sluice.core.engine;

import dev.sluice.core.classify.AttemptResult;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * The terminal outcome of one action, with the context an agent (or a person) needs to act next
 * (DESIGN.md §3 rule 11). Never a bare "API error".
 *
 * @param taskId the task the action belonged to (for a coalesced action: the caller's own task)
 * @param actionId the engine's id of the action that was sent (shared by coalesced callers)
 * @param outcome what happened
 * @param requestSent whether any attempt's bytes may have reached the provider
 * @param responseReceived whether the last attempt got a complete response
 * @param attempts attempts that reached the transport for this action, sends and reconciliation look-ups alike
 * @param waited time spent waiting in Sluice (queues and retry delays), not in flight
 * @param lastStatus the last HTTP status received
 * @param nextAllowedAt the scope's hold, when one is in force at the end
 * @param nextSafeAction what can safely be done next, in words
 * @param reason why the action ended this way
 * @param response the final response, for {@link OutcomeCode#SUCCEEDED} and other terminal
 *     responses (body capped at {@link AttemptResult.Response#BODY_PREFIX_LIMIT})
 * @param fingerprint the failure fingerprint, for {@link OutcomeCode#CIRCUIT_OPEN}
 * @param coalesced true when this caller shared another caller's attempt
 * @param finishedAt when the outcome was decided
 * @param reconciled true when the outcome was established by a reconciliation look-up (the write's
 *     own answer was lost; the provider's record was found), {@code response} then being the
 *     look-up's answer
 */
public record Outcome(
    String taskId,
    long actionId,
    OutcomeCode outcome,
    boolean requestSent,
    boolean responseReceived,
    int attempts,
    Duration waited,
    OptionalInt lastStatus,
    Optional<Instant> nextAllowedAt,
    String nextSafeAction,
    String reason,
    Optional<AttemptResult.Response> response,
    Optional<String> fingerprint,
    boolean coalesced,
    Instant finishedAt,
    boolean reconciled) {

  public Outcome {
    Objects.requireNonNull(taskId, "taskId");
    Objects.requireNonNull(outcome, "outcome");
    Objects.requireNonNull(waited, "waited");
    Objects.requireNonNull(lastStatus, "lastStatus");
    Objects.requireNonNull(nextAllowedAt, "nextAllowedAt");
    Objects.requireNonNull(nextSafeAction, "nextSafeAction");
    Objects.requireNonNull(reason, "reason");
    Objects.requireNonNull(response, "response");
    Objects.requireNonNull(fingerprint, "fingerprint");
    Objects.requireNonNull(finishedAt, "finishedAt");
    if (attempts < 0) {
      throw new IllegalArgumentException("attempts cannot be negative: " + attempts);
    }
  }

  /** {@code waited} in seconds, as {@code waited_seconds} in JSON. */
  public double waitedSeconds() {
    return waited.toNanos() / 1e9;
  }

  public boolean succeeded() {
    return outcome == OutcomeCode.SUCCEEDED;
  }
}
