package dev.sluice.core.policy.internal;

import dev.sluice.core.policy.Agent;
import dev.sluice.core.policy.SecretRef;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** Reads {@code agents}: unique ids, one token reference each (never shared), and providers that exist. */
final class AgentReader {
  private final Problems problems;
  private final Set<String> providerIds;

  AgentReader(Problems problems, Set<String> providerIds) {
    this.problems = problems;
    this.providerIds = providerIds;
  }

  List<Agent> agents(YamlValue v) {
    List<Agent> out = new ArrayList<>();
    Map<String, YamlValue> ids = new HashMap<>();
    Map<String, YamlValue> tokens = new HashMap<>();
    v.list("a list of agents such as - {id: inventory-bot, token_env: SLUICE_TOKEN_INVENTORY_BOT, providers: [billing-api]}")
        .ifPresent(items -> {
          for (YamlValue item : items) {
            agent(item, ids, tokens).ifPresent(out::add);
          }
        });
    return out;
  }

  private Optional<Agent> agent(YamlValue v, Map<String, YamlValue> ids, Map<String, YamlValue> tokens) {
    int before = problems.count();
    Optional<YamlMapping> mo = v.mapping(PolicyReader.AGENT_KEYS, null, "a mapping with id, token_env or token_file, and providers");
    if (mo.isEmpty()) {
      return Optional.empty();
    }
    YamlMapping m = mo.get();
    Optional<YamlValue> idNode = m.required("id", "an agent id such as inventory-bot");
    Optional<String> id = idNode.flatMap(x -> x.string("an agent id such as inventory-bot")).flatMap(s -> {
      if (!Syntax.AGENT_ID.matcher(s).matches()) {
        idNode.get().error("found '" + s + "', expected an agent id: letters, digits, _ . -, starting with a letter or digit, at most 64 characters");
        return Optional.empty();
      }
      YamlValue first = ids.putIfAbsent(s, idNode.get());
      if (first != null) {
        idNode.get().error("agent '" + s + "' is already defined at line " + first.line() + "; agent ids must be unique");
      }
      return Optional.of(s);
    });
    Optional<SecretRef> token = Fields.secretRef(m, "token_env", "token_file", "SLUICE_TOKEN_INVENTORY_BOT");
    if (token.isPresent()) {
      String tokenKey = token.get() instanceof SecretRef.Env ? "token_env" : "token_file";
      YamlValue tokenNode = m.optional(tokenKey).orElse(m.self());
      YamlValue first = tokens.putIfAbsent(token.get().describe(), tokenNode);
      if (first != null) {
        tokenNode.error("this token (" + token.get().describe() + ") is already used by the agent at line " + first.line()
            + "; two agents with one token cannot be told apart");
      }
    }
    List<String> providers = new ArrayList<>();
    m.required("providers", "a list of provider ids such as [billing-api]").ifPresent(pv -> pv.list("a list of provider ids such as [billing-api]").ifPresent(items -> {
      if (items.isEmpty()) {
        pv.error("found an empty list; an agent needs at least one provider");
      }
      Set<String> seen = new HashSet<>();
      for (YamlValue item : items) {
        item.string("a provider id").ifPresent(p -> {
          if (!providerIds.contains(p)) {
            item.error("provider '" + p + "' is not defined" + Suggest.didYouMean(p, providerIds)
                + (providerIds.isEmpty() ? " (no providers are defined)" : " (defined: " + String.join(", ", Fields.sorted(providerIds)) + ")"));
          } else if (!seen.add(p)) {
            item.error("provider '" + p + "' is listed twice");
          } else {
            providers.add(p);
          }
        });
      }
    }));
    if (problems.count() > before) {
      return Optional.empty();
    }
    return Fields.build(v, () -> new Agent(id.get(), token.get(), providers));
  }
}
