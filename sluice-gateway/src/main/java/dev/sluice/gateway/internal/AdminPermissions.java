package dev.sluice.gateway.internal;

import dev.sluice.core.policy.OperatorPermission;
import java.util.Optional;

/**
 * The permission each admin endpoint needs ({@code operators[].permissions}). Endpoints not listed
 * need none beyond an operator token (an unknown one is answered 404 anyway); an escalation
 * endpoint that records a decision should map to {@link OperatorPermission#DECIDE} here.
 */
final class AdminPermissions {
  private AdminPermissions() {}

  /** @param seg the path's segments, {@code seg[0]} being {@code v1} */
  static Optional<OperatorPermission> needed(String[] seg, String method) {
    if (seg.length < 2) {
      return Optional.empty();
    }
    return switch (seg[1]) {
      case "audit" -> Optional.of(OperatorPermission.AUDIT_READ);
      case "tasks" -> Optional.of(method.equals("DELETE") ? OperatorPermission.CANCEL : OperatorPermission.READ);
      case "scopes", "actions" -> Optional.of(OperatorPermission.READ);
      case "escalations", "decisions" -> Optional.of(method.equals("GET") ? OperatorPermission.READ : OperatorPermission.DECIDE);
      default -> Optional.empty();
    };
  }
}
