package dev.sluice.core.escalation;

import java.util.Locale;
import java.util.Optional;

/**
 * The choices an operator can make on an escalation (DESIGN.md §3 rule 12). Each escalation offers
 * only those that are possible and safe for its action, each with its risk ({@link Option}).
 */
public enum DecisionOption {
  /** Run the route's reconciliation look-up now, through the scope's gates; nothing is resent. */
  QUERY_EXISTING,
  /** Resend the stored payload with the original idempotency key (the provider deduplicates). */
  RETRY_SAME_KEY,
  /** Stop: the action and the rest of its task are cancelled; queued work never wakes. */
  CANCEL,
  /** Send the payload as a new operation under a new key: may create a second effect; needs confirmation. */
  SEND_NEW,
  /** Leave the action as it is (a configuration problem to fix, not a stopped action). */
  ACKNOWLEDGE,
  /** Per-call approval: send the held action now. */
  APPROVE,
  /** Per-call approval: never send it. */
  REJECT;

  /** snake_case, as stored and as typed on the command line. */
  public String code() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** Parses a {@link #code()}. */
  public static Optional<DecisionOption> fromCode(String code) {
    for (DecisionOption o : values()) {
      if (o.code().equals(code)) {
        return Optional.of(o);
      }
    }
    return Optional.empty();
  }
}
