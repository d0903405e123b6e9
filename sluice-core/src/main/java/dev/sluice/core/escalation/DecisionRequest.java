package dev.sluice.core.escalation;

import java.util.Objects;

/**
 * What an operator asks for: an option the escalation offers, who decides (a name, 1-200
 * printable characters) and why (1-2000), and {@code confirm} — required true for {@link
 * DecisionOption#SEND_NEW}, which may create a second external effect.
 */
public record DecisionRequest(DecisionOption option, String by, String reason, boolean confirm) {
  public DecisionRequest {
    Objects.requireNonNull(option, "option");
    Objects.requireNonNull(by, "by");
    Objects.requireNonNull(reason, "reason");
    if (by.isBlank() || by.length() > 200 || by.chars().anyMatch(Character::isISOControl)) {
      throw new IllegalArgumentException("'by' names who decides: 1-200 printable characters");
    }
    if (reason.isBlank() || reason.length() > 2000) {
      throw new IllegalArgumentException("'reason' says why: 1-2000 characters");
    }
  }

  /** A request without confirmation. */
  public static DecisionRequest of(DecisionOption option, String by, String reason) {
    return new DecisionRequest(option, by, reason, false);
  }
}
