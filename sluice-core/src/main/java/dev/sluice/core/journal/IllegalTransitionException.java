package dev.sluice.core.journal;

/**
 * A change the action's state machine forbids ({@link ActionState}): a bug in the caller, never a
 * race. (A race — the state moved since the caller read it — is a {@link TransitionResult} that
 * was not applied.)
 */
public class IllegalTransitionException extends IllegalStateException {
  private static final long serialVersionUID = 1L;

  public IllegalTransitionException(String message) {
    super(message);
  }
}
