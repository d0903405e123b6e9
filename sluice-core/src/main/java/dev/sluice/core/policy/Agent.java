package dev.sluice.core.policy;

import dev.sluice.core.policy.internal.Syntax;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;

/**
 * An agent allowed to call through Sluice ({@code agents[]}): it authenticates with its own token
 * (never a provider credential) and reaches only the providers listed.
 *
 * @param id unique among agents; letters, digits, {@code _ . -}, starting with a letter or digit
 * @param token where the agent's token is read from ({@code token_env} or {@code token_file},
 *     exactly one); the token itself is never part of the policy
 * @param providers ids of configured providers, at least one, no duplicates
 */
public record Agent(String id, SecretRef token, List<String> providers) {
  public Agent {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(token, "token");
    Objects.requireNonNull(providers, "providers");
    if (!Syntax.AGENT_ID.matcher(id).matches()) {
      throw new IllegalArgumentException("agent id '" + id + "' must match " + Syntax.AGENT_ID.pattern());
    }
    if (providers.isEmpty()) {
      throw new IllegalArgumentException("agent '" + id + "' must list at least one provider");
    }
    if (new HashSet<>(providers).size() != providers.size()) {
      throw new IllegalArgumentException("agent '" + id + "' lists a provider twice");
    }
    providers = List.copyOf(providers);
  }

  /** Whether this agent may call the provider. */
  public boolean mayUse(String providerId) {
    return providers.contains(providerId);
  }
}
