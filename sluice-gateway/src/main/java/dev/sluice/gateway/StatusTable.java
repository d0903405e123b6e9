package dev.sluice.gateway;

import dev.sluice.core.engine.Outcome;
import dev.sluice.core.engine.OutcomeCode;
import java.time.Instant;
import java.util.OptionalLong;

/**
 * The HTTP status an agent gets for each terminal outcome, and when a {@code Retry-After} goes
 * with it. The table is documented in docs/GATEWAY.md; the rule behind it: an honest status for
 * the class of problem, and never a status that common HTTP clients retry by themselves
 * (408, 429, 5xx) for an outcome where a blind repeat could create a second effect.
 *
 * <p>{@code succeeded}, {@code client_error} and {@code conflict} relay the provider's own
 * response (its status, headers and body); every other outcome is a problem document.
 */
public final class StatusTable {
  private StatusTable() {}

  /** Whether the provider's response is relayed as-is for this outcome (else: problem+json). */
  public static boolean relaysProviderResponse(Outcome o) {
    return o.response().isPresent()
        && (o.outcome() == OutcomeCode.SUCCEEDED || o.outcome() == OutcomeCode.CLIENT_ERROR || o.outcome() == OutcomeCode.CONFLICT);
  }

  /** The status of the problem document for a terminal outcome that is not relayed. */
  public static int status(Outcome o) {
    return switch (o.outcome()) {
      case SUCCEEDED -> 200; // relayed in practice; 200 only when a success carried no response
      case CLIENT_ERROR, CONFLICT -> o.lastStatus().orElse(400);
      // Refusal reasons start with their code: the agent's repeat of a keyed call is a conflict,
      // a journal failure is Sluice's, not the agent's; everything else is a bad request.
      case REFUSED -> o.reason().startsWith("duplicate_idempotency_key") ? 409 : o.reason().startsWith("not_journaled") ? 503 : 400;
      case RATE_LIMITED, QUOTA_EXHAUSTED -> 429;
      case BUDGET_EXHAUSTED -> o.lastStatus().orElse(0) == 429 ? 429 : 503;
      case SCOPE_BACKPRESSURE, UNAVAILABLE, CIRCUIT_OPEN -> 503;
      case DEADLINE_EXCEEDED, TIMEOUT_BEFORE_SEND -> 504;
      case RESET_BEFORE_SEND, REDIRECT_REFUSED -> 502;
      case CANCELLED -> 409;
      // A write whose effect is unknown: 424, which no common client retries on its own.
      case OUTCOME_UNKNOWN, RECONCILIATION_REQUIRED, ESCALATED -> 424;
    };
  }

  /**
   * Seconds for {@code Retry-After}, only when waiting is genuinely the next safe action: the
   * scope is held (a rate limit or quota with a known end), or the queue was full. Never for a
   * write of unknown outcome, a cancelled task, a refused call, a client error or an open circuit.
   */
  public static OptionalLong retryAfterSeconds(Outcome o, Instant now) {
    boolean waitHelps = switch (o.outcome()) {
      case RATE_LIMITED, QUOTA_EXHAUSTED, BUDGET_EXHAUSTED, SCOPE_BACKPRESSURE -> true;
      default -> false;
    };
    if (!waitHelps) {
      return OptionalLong.empty();
    }
    if (o.nextAllowedAt().isPresent() && o.nextAllowedAt().get().isAfter(now)) {
      long millis = java.time.Duration.between(now, o.nextAllowedAt().get()).toMillis();
      return OptionalLong.of(Math.max(1, (millis + 999) / 1000));
    }
    return o.outcome() == OutcomeCode.SCOPE_BACKPRESSURE ? OptionalLong.of(1) : OptionalLong.empty();
  }

  /** A short title per outcome, for the problem document. */
  public static String title(OutcomeCode c) {
    return switch (c) {
      case SUCCEEDED -> "Succeeded";
      case BUDGET_EXHAUSTED -> "Retry budget exhausted";
      case DEADLINE_EXCEEDED -> "Task deadline exceeded";
      case SCOPE_BACKPRESSURE -> "Scope queue full";
      case CANCELLED -> "Task cancelled";
      case CIRCUIT_OPEN -> "Circuit open: the same failure repeated";
      case CLIENT_ERROR -> "Client error from the provider";
      case QUOTA_EXHAUSTED -> "Provider quota exhausted";
      case CONFLICT -> "Conflict at the provider";
      case RECONCILIATION_REQUIRED -> "Write outcome unknown: reconciliation required";
      case ESCALATED -> "Write outcome unknown: escalated to a person";
      case REDIRECT_REFUSED -> "Redirect refused";
      case RATE_LIMITED -> "Rate limited";
      case UNAVAILABLE -> "Provider unavailable";
      case TIMEOUT_BEFORE_SEND -> "Timeout before the request was sent";
      case RESET_BEFORE_SEND -> "Connection reset before the request was sent";
      case OUTCOME_UNKNOWN -> "Write outcome unknown";
      case REFUSED -> "Refused by Sluice";
    };
  }
}
