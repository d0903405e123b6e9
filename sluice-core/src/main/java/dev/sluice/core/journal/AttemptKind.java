package dev.sluice.core.journal;

import java.util.Locale;
import java.util.Optional;

/** What an attempt asked the provider: to do the action, or whether it was done. */
public enum AttemptKind {
  /** The action's own request (first send, retry or resend with the same key); counts against its budget. */
  SEND,
  /** A reconciliation look-up (a GET or HEAD naming the action); never changes anything. */
  LOOKUP;

  public String code() {
    return name().toLowerCase(Locale.ROOT);
  }

  public static Optional<AttemptKind> fromCode(String code) {
    for (AttemptKind k : values()) {
      if (k.code().equals(code)) {
        return Optional.of(k);
      }
    }
    return Optional.empty();
  }
}
