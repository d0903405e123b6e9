package dev.sluice.mcp.internal;

import dev.sluice.core.Sluice;
import dev.sluice.gateway.internal.TaskNames;
import dev.sluice.mcp.McpAgent;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@code cancel_task}: cancels a task the agent used through this server. Its queued and delayed
 * calls never leave, attempts in flight are aborted, and later calls of the task are refused as
 * cancelled (durably, with a journal). Task names are the agent's own: the engine's task is {@code
 * agent/task} ({@code TaskNames}, as in the gateway), so two agents using task {@code t} never cancel
 * each other's work. A task of the agent's that this process never saw (resumed from the journal
 * after a restart) can be cancelled too.
 */
public final class CancelTaskTool {
  private final Sluice sluice;

  /** The agent's namespace bounds what it may cancel; no record of the tasks it used is needed. */
  public CancelTaskTool(Sluice sluice) {
    this.sluice = sluice;
  }

  public McpSchema.CallToolResult call(McpAgent agent, Map<String, Object> arguments) {
    String task = new Args(arguments).string("task").trim();
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("task", task);
    if (task.isEmpty()) {
      m.put("state", "refused");
      m.put("cancelled", 0);
      m.put("reason", "bad_task: the task name is empty; nothing was cancelled");
      m.put("next_safe_action", "name a task you passed to http_request (or your session's default task)");
      return ResultMaps.result(m, "Refused: " + m.get("reason"), true);
    }
    // No check against the tasks this server has seen: after a restart the journal resumes tasks
    // this process never saw, and they must stay cancellable (review). The namespace is the limit.
    int n = sluice.cancel(TaskNames.internal(agent.id(), task)); // this agent's task of that name, never another agent's
    m.put("state", "cancelled");
    m.put("cancelled", n);
    m.put("reason", null);
    m.put("next_safe_action", "nothing of task " + task + " will be sent any more; later calls in this task are refused, so use a new task name for new work");
    return ResultMaps.result(m, "Cancelled task " + task + ": " + n + " pending call" + (n == 1 ? "" : "s") + " dropped; none of them will be sent."
        + " Later calls in this task are refused; use a new task name for new work.", false);
  }
}
