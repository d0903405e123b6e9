package dev.sluice.core.escalation;

/**
 * A decision that cannot be recorded: the escalation is unknown or already decided, the option is
 * not offered, or a flagged option lacks its confirmation. Nothing was recorded or sent.
 */
public final class DecisionException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** Why, for mapping to a status: the escalation does not exist, or the request conflicts with its state. */
  public enum Kind { NOT_FOUND, ALREADY_DECIDED, NOT_OFFERED, CONFIRMATION_REQUIRED }

  private final Kind kind;

  public DecisionException(Kind kind, String message) {
    super(message);
    this.kind = kind;
  }

  public Kind kind() {
    return kind;
  }
}
