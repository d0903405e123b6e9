package dev.sluice.core.escalation;

import java.util.Locale;

/** An escalation waits for a person ({@code open}) until one decision is recorded ({@code decided}). */
public enum EscalationState {
  OPEN,
  DECIDED;

  public String code() {
    return name().toLowerCase(Locale.ROOT);
  }
}
