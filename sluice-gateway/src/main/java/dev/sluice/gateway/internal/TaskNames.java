package dev.sluice.gateway.internal;

import java.util.Optional;

/**
 * Task ids are namespaced per agent inside Sluice: the agent's {@code Sluice-Task: sync-482} is the
 * engine's and the journal's task {@code inventory-bot/sync-482}. Two agents using the same task
 * name therefore never share cancellation, budgets or task views, and the owner of a journaled
 * action can be read back from its record after a restart. Agent ids never contain {@code /}
 * (the policy loader's rule), so the first {@code /} separates the two.
 */
public final class TaskNames {
  private TaskNames() {}

  /** The agent's task, as the engine and journal know it. */
  public static String internal(String agent, String task) {
    return agent + "/" + task;
  }

  /** An agent and its own task name. */
  public record Owned(String agent, String task) {}

  /** The owner and the agent's own name of an internal task id; empty for one the gateway did not name. */
  public static Optional<Owned> split(String internal) {
    int slash = internal.indexOf('/');
    if (slash <= 0 || slash == internal.length() - 1) {
      return Optional.empty();
    }
    return Optional.of(new Owned(internal.substring(0, slash), internal.substring(slash + 1)));
  }
}
