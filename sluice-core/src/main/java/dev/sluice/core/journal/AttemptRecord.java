package dev.sluice.core.journal;

import dev.sluice.core.http.Headers;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * One attempt of an action as the journal holds it: every request that left (or may have left) for
 * the provider, sends and look-ups alike, numbered 1, 2, … within the action in the order started.
 *
 * @param actionId the action
 * @param number the attempt's number within the action, from 1
 * @param kind a send of the action or a reconciliation look-up
 * @param startedAt when it was handed to the transport
 * @param idempotencyKeySent the key sent with it (for a send: always the action's own key)
 * @param finishedAt when it ended; empty while in flight
 * @param end how it ended; empty while in flight
 * @param rateLimitHeaders the {@code Retry-After} and rate-limit fields of the response, and only
 *     those: the journal drops every other field, so nothing secret can be stored here
 */
public record AttemptRecord(
    ActionId actionId,
    int number,
    AttemptKind kind,
    Instant startedAt,
    Optional<String> idempotencyKeySent,
    Optional<Instant> finishedAt,
    Optional<AttemptEnd> end,
    Headers rateLimitHeaders) {

  public AttemptRecord {
    Objects.requireNonNull(actionId, "actionId");
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(startedAt, "startedAt");
    Objects.requireNonNull(idempotencyKeySent, "idempotencyKeySent");
    Objects.requireNonNull(finishedAt, "finishedAt");
    Objects.requireNonNull(end, "end");
    Objects.requireNonNull(rateLimitHeaders, "rateLimitHeaders");
    if (number < 1) {
      throw new IllegalArgumentException("attempt numbers start at 1, got " + number);
    }
    if (finishedAt.isPresent() != end.isPresent()) {
      throw new IllegalArgumentException("an attempt has both a finish time and an end, or neither");
    }
  }

  /** Whether the attempt has ended (a response, a failure, or abandoned). */
  public boolean finished() {
    return end.isPresent();
  }

  /** Whether request bytes may have reached the provider (false while still in flight). */
  public boolean requestCommitted() {
    return end.map(AttemptEnd::requestCommitted).orElse(false);
  }

  /**
   * Whether the provider may have acted on it without Sluice knowing the result: still in flight,
   * or committed without a response (timeout, reset or truncated body after send, or abandoned).
   */
  public boolean outcomeUnknown() {
    return end.map(e -> e.requestCommitted() && !e.responseReceived()).orElse(true);
  }
}
