package dev.sluice.core.escalation;

import java.util.Objects;

/**
 * One choice offered on an escalation, with its risk in words.
 *
 * @param option what the operator may decide
 * @param risk what can go wrong, written for the person deciding
 * @param requiresConfirmation true for {@link DecisionOption#SEND_NEW}: the decision needs {@code
 *     confirm: true}, because it may create a second external effect
 */
public record Option(DecisionOption option, String risk, boolean requiresConfirmation) {
  public Option {
    Objects.requireNonNull(option, "option");
    Objects.requireNonNull(risk, "risk");
  }
}
