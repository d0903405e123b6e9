package dev.sluice.core.policy;

import java.util.EnumSet;
import java.util.Objects;
import java.util.Set;

/**
 * A person (or tool) allowed on the admin API ({@code operators[]}), with the permissions named.
 * The single {@code operator: {token_env}} of earlier policies is the operator {@value #LEGACY_ID}
 * with every permission.
 *
 * @param id a name, recorded with what the operator does
 * @param token where the operator's bearer token is read from
 * @param permissions what the operator may do; none is allowed (an identity with no rights)
 */
public record Operator(String id, SecretRef token, Set<OperatorPermission> permissions) {
  /** The id of the operator configured by the {@code operator} block. */
  public static final String LEGACY_ID = "operator";

  public Operator {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(token, "token");
    permissions = permissions.isEmpty() ? Set.of() : Set.copyOf(EnumSet.copyOf(permissions));
  }

  /** The {@code operator} block's operator: every permission. */
  public static Operator legacy(SecretRef token) {
    return new Operator(LEGACY_ID, token, EnumSet.allOf(OperatorPermission.class));
  }

  public boolean may(OperatorPermission p) {
    return permissions.contains(p);
  }
}
