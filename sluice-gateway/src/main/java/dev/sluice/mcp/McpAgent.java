package dev.sluice.mcp;

import dev.sluice.core.policy.Agent;
import dev.sluice.core.policy.Policy;
import java.util.List;
import java.util.Objects;

/**
 * The agent an MCP session acts for, and the providers it may use. Tools show and reach only these
 * providers; another provider's name gets the same refusal as an unknown one, so an agent learns
 * nothing of providers it may not use.
 *
 * @param id the agent's id ({@code agents[].id}), or {@code local} when the policy names no agents
 * @param providers the provider ids it may call, in the policy's order
 */
public record McpAgent(String id, List<String> providers) {
  public McpAgent {
    Objects.requireNonNull(id, "id");
    providers = List.copyOf(Objects.requireNonNull(providers, "providers"));
  }

  /** The policy's agent of this id, with the providers of its {@code providers} list. */
  public static McpAgent of(Agent a) {
    return new McpAgent(a.id(), a.providers());
  }

  /** Every provider of the policy: for a stdio server on a policy that names no agents. */
  public static McpAgent local(Policy policy) {
    return new McpAgent("local", List.copyOf(policy.providers().keySet()));
  }

  public boolean mayUse(String provider) {
    return providers.contains(provider);
  }
}
