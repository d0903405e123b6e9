package dev.sluice.core.policy;

import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;

/** What an operator may do through the admin API ({@code operators[].permissions}). */
public enum OperatorPermission {
  /** {@code GET /v1/scopes}, {@code /v1/actions/{id}}, {@code /v1/tasks/{id}}. */
  READ,
  /** {@code DELETE /v1/tasks/{id}}. */
  CANCEL,
  /** Read and export the audit log ({@code GET /v1/audit}). */
  AUDIT_READ,
  /** Decide escalations. */
  DECIDE;

  /** The name used in {@code sluice.yaml}: {@code audit_read}. */
  public String key() {
    return name().toLowerCase(Locale.ROOT);
  }

  public static Optional<OperatorPermission> of(String key) {
    return Arrays.stream(values()).filter(p -> p.key().equals(key)).findFirst();
  }
}
