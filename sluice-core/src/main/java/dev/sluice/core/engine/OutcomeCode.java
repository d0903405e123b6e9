package dev.sluice.core.engine;

import java.util.Locale;
import java.util.Optional;

/** The terminal outcome of an action, as the agent sees it (snake_case in JSON). */
public enum OutcomeCode {
  /** A 2xx (or 304) arrived. */
  SUCCEEDED,
  /** The request class's attempts or wait budget (or the task's attempt budget) ran out. */
  BUDGET_EXHAUSTED,
  /** The task's deadline came first. */
  DEADLINE_EXCEEDED,
  /** The scope's queue was full ({@code max_delayed_requests}); refused at once. */
  SCOPE_BACKPRESSURE,
  /** The task was cancelled. */
  CANCELLED,
  /** The same failure repeated on this path; the circuit stopped it. */
  CIRCUIT_OPEN,
  /** A 4xx a repeat cannot fix. */
  CLIENT_ERROR,
  /** The provider's quota (daily, billing) is used up. */
  QUOTA_EXHAUSTED,
  /** 409: resolve the conflict first. */
  CONFLICT,
  /** A write's outcome is unknown; look it up before anything else. */
  RECONCILIATION_REQUIRED,
  /** A write's outcome is unknown and cannot be looked up; a person decides. */
  ESCALATED,
  /** A 3xx: Sluice does not follow redirects. */
  REDIRECT_REFUSED,
  /** Still rate limited, with a status outside the class's retry statuses. */
  RATE_LIMITED,
  /** 5xx/408 outside the class's retry statuses. */
  UNAVAILABLE,
  /** A timeout before anything was sent, not retried. */
  TIMEOUT_BEFORE_SEND,
  /** A reset before anything was sent, not retried. */
  RESET_BEFORE_SEND,
  /** Sent, no response, and the class allows no retry. */
  OUTCOME_UNKNOWN,
  /**
   * Refused before it was queued, nothing sent: an unknown provider, an unsafe path, a malformed
   * method, header or idempotency key, or a body over the cap. Fix the call; repeating it cannot help.
   */
  REFUSED;

  public String code() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** Parses a snake_case code. */
  public static Optional<OutcomeCode> fromCode(String code) {
    for (OutcomeCode c : values()) {
      if (c.code().equals(code)) {
        return Optional.of(c);
      }
    }
    return Optional.empty();
  }
}
