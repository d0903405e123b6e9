package dev.sluice.gateway.internal;

import dev.sluice.core.policy.OperatorPermission;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Who is an operator and what each may do on the admin API. Tokens are checked in constant time
 * ({@link Tokens}); permissions come from {@code operators[].permissions} (the {@code operator}
 * block's operator has them all).
 */
public final class OperatorAccess {
  private final Tokens tokens;
  private final Map<String, Set<OperatorPermission>> permissions;
  private final boolean everyOwnerAllowed;

  private OperatorAccess(Tokens tokens, Map<String, Set<OperatorPermission>> permissions, boolean everyOwnerAllowed) {
    this.tokens = tokens;
    this.permissions = Map.copyOf(permissions);
    this.everyOwnerAllowed = everyOwnerAllowed;
  }

  /** @param permissions per operator id; an id absent here has none */
  public OperatorAccess(Tokens tokens, Map<String, Set<OperatorPermission>> permissions) {
    this(tokens, permissions, false);
  }

  /** Every owner of {@code tokens} with every permission (the single-operator setup). */
  public static OperatorAccess allPermissions(Tokens tokens) {
    return new OperatorAccess(tokens, Map.of(), true);
  }

  /** The operator whose bearer token this is. */
  public Optional<String> operator(Optional<String> bearerToken) {
    return bearerToken.flatMap(tokens::owner);
  }

  public boolean may(String operatorId, OperatorPermission p) {
    return everyOwnerAllowed || permissions.getOrDefault(operatorId, Set.of()).contains(p);
  }
}
