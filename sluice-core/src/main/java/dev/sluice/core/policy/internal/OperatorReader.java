package dev.sluice.core.policy.internal;

import dev.sluice.core.policy.Operator;
import dev.sluice.core.policy.OperatorPermission;
import dev.sluice.core.policy.SecretRef;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/** Reads {@code operators}: unique ids, one token each, and known permissions. */
final class OperatorReader {
  static final List<String> OPERATOR_ITEM_KEYS = List.of("id", "token_env", "token_file", "permissions");
  private static final String KNOWN = Arrays.stream(OperatorPermission.values()).map(OperatorPermission::key).collect(Collectors.joining(", "));

  private final Problems problems;

  OperatorReader(Problems problems) {
    this.problems = problems;
  }

  List<Operator> operators(YamlValue v, boolean legacyOperator) {
    List<Operator> out = new ArrayList<>();
    Map<String, YamlValue> ids = new HashMap<>();
    Map<String, YamlValue> tokens = new HashMap<>();
    v.list("a list of operators such as - {id: alice, token_env: SLUICE_OPERATOR_ALICE, permissions: [read, audit_read]}").ifPresent(items -> {
      for (YamlValue item : items) {
        operator(item, ids, tokens, legacyOperator).ifPresent(out::add);
      }
    });
    return out;
  }

  private Optional<Operator> operator(YamlValue v, Map<String, YamlValue> ids, Map<String, YamlValue> tokens, boolean legacyOperator) {
    int before = problems.count();
    Optional<YamlMapping> mo = v.mapping(OPERATOR_ITEM_KEYS, null, "a mapping with id, token_env or token_file, and permissions");
    if (mo.isEmpty()) {
      return Optional.empty();
    }
    YamlMapping m = mo.get();
    Optional<YamlValue> idNode = m.required("id", "an operator id such as alice");
    Optional<String> id = idNode.flatMap(x -> x.string("an operator id such as alice")).flatMap(s -> {
      if (!Syntax.AGENT_ID.matcher(s).matches()) {
        idNode.get().error("found '" + s + "', expected an operator id: letters, digits, _ . -, starting with a letter or digit, at most 64 characters");
        return Optional.empty();
      }
      if (legacyOperator && s.equals(Operator.LEGACY_ID)) {
        idNode.get().error("'" + Operator.LEGACY_ID + "' is the operator of the 'operator' block; choose another id");
        return Optional.empty();
      }
      YamlValue first = ids.putIfAbsent(s, idNode.get());
      if (first != null) {
        idNode.get().error("operator '" + s + "' is already defined at line " + first.line() + "; operator ids must be unique");
      }
      return Optional.of(s);
    });
    Optional<SecretRef> token = Fields.secretRef(m, "token_env", "token_file", "SLUICE_OPERATOR_ALICE");
    token.ifPresent(t -> {
      YamlValue tokenNode = m.optional(t instanceof SecretRef.Env ? "token_env" : "token_file").orElse(m.self());
      YamlValue first = tokens.putIfAbsent(t.describe(), tokenNode);
      if (first != null) {
        tokenNode.error("this token (" + t.describe() + ") is already used by the operator at line " + first.line()
            + "; two operators with one token cannot be told apart");
      }
    });
    Set<OperatorPermission> perms = EnumSet.noneOf(OperatorPermission.class);
    m.required("permissions", "a list of permissions such as [read, audit_read] (known: " + KNOWN + ")").ifPresent(pv ->
        pv.list("a list of permissions such as [read, audit_read] (known: " + KNOWN + ")").ifPresent(items -> {
          for (YamlValue item : items) {
            item.string("a permission (" + KNOWN + ")").ifPresent(p -> {
              Optional<OperatorPermission> perm = OperatorPermission.of(p);
              if (perm.isEmpty()) {
                item.error("found '" + p + "', expected a permission: " + KNOWN
                    + Suggest.didYouMean(p, Arrays.stream(OperatorPermission.values()).map(OperatorPermission::key).collect(Collectors.toSet())));
              } else if (!perms.add(perm.get())) {
                item.error("permission '" + p + "' is listed twice");
              }
            });
          }
        }));
    if (problems.count() > before) {
      return Optional.empty();
    }
    return Fields.build(v, () -> new Operator(id.get(), token.get(), perms));
  }
}
