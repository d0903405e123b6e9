package dev.sluice.core.escalation;

import java.util.Locale;
import java.util.Optional;

/**
 * Why an action was handed to a person (DESIGN.md §3 rule 12; issue 7). Each can be switched off in
 * {@code escalation.triggers}; by default all are on (they need a journal).
 */
public enum Trigger {
  /** A write's outcome is unknown and cannot be reconciled automatically ({@code reconciliation_required}). */
  UNCERTAIN_WRITE,
  /** The remaining wait (a server's delay or a scope hold) reached past the task's deadline. */
  DEADLINE_EXCEEDED,
  /** The request class's time budget ({@code max_wait_seconds}) ran out with attempts still allowed. */
  WAIT_BUDGET_EXHAUSTED,
  /**
   * The task's own attempt budget (set by the agent) ran out. Like the deadline, it is the agent's
   * rule: only {@code cancel} is offered.
   */
  TASK_BUDGET_EXHAUSTED,
  /** The shared scope's budget ran out: its queue ({@code max_delayed_requests}) was full. */
  SCOPE_EXHAUSTED,
  /** The provider's quota (daily, billing) is used up until its reset. */
  QUOTA_EXHAUSTED,
  /** More 429s in an hour than {@code escalation.rate_limits_per_hour} on a scope whose quota is configured. */
  REPEATED_RATE_LIMITS,
  /** A circuit opened on a write path. */
  CIRCUIT_OPEN_WRITE,
  /** The route is {@code approval: per_call}: nothing is sent before an operator approves. */
  APPROVAL_REQUIRED;

  /** snake_case, as configured, stored and shown. */
  public String code() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** Parses a {@link #code()}. */
  public static Optional<Trigger> fromCode(String code) {
    for (Trigger t : values()) {
      if (t.code().equals(code)) {
        return Optional.of(t);
      }
    }
    return Optional.empty();
  }
}
