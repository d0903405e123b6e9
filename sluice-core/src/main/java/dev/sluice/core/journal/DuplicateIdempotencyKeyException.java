package dev.sluice.core.journal;

import java.util.Objects;

/**
 * {@link Journal#recordAction} refused an action whose idempotency key another action of the same
 * provider already holds. One key names one logical action: an agent that repeats its call with
 * the same {@code Idempotency-Key} is asking about that action, not for a second one.
 */
public class DuplicateIdempotencyKeyException extends JournalException {
  private static final long serialVersionUID = 1L;
  private final transient ActionId existing;

  public DuplicateIdempotencyKeyException(String provider, ActionId existing) {
    super("provider '" + provider + "' already has an action with this idempotency key: " + existing);
    this.existing = Objects.requireNonNull(existing, "existing");
  }

  /** The action that holds the key. */
  public ActionId existing() {
    return existing;
  }
}
