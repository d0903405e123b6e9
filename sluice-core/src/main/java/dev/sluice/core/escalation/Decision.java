package dev.sluice.core.escalation;

import java.time.Instant;
import java.util.Objects;

/**
 * A recorded decision: what was chosen, by whom, why, whether the operator confirmed a flagged
 * option, and when. Kept in the journal and written to the audit log ({@code decision_recorded}).
 */
public record Decision(DecisionOption option, String by, String reason, boolean confirmation, Instant at) {
  public Decision {
    Objects.requireNonNull(option, "option");
    Objects.requireNonNull(by, "by");
    Objects.requireNonNull(reason, "reason");
    Objects.requireNonNull(at, "at");
  }
}
