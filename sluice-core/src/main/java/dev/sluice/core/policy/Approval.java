package dev.sluice.core.policy;

import java.util.Locale;

/** Whether each call on a route needs an operator's approval before it is sent ({@code approval}). */
public enum Approval {
  /** Calls are sent without asking (the default). */
  NONE,
  /** Each action is held durably, before any send, until an operator approves or rejects it. */
  PER_CALL;

  /** The name used in configuration: {@code none}, {@code per_call}. */
  public String configName() {
    return name().toLowerCase(Locale.ROOT);
  }
}
