package dev.sluice.mcp.internal;

import dev.sluice.core.Sluice;
import dev.sluice.core.engine.Outcome;
import dev.sluice.core.journal.ActionId;
import dev.sluice.core.journal.ActionRecord;
import dev.sluice.mcp.McpAgent;
import io.modelcontextprotocol.spec.McpSchema;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/**
 * {@code action_status}: where an action stands. An action this server started answers with the
 * same result {@code http_request} would have given (the provider's response included once done);
 * a journaled action it does not hold (an earlier run) answers from the journal: state, due time,
 * outcome and reason, without the response body, which is not journaled. Only the agent's own
 * actions, or for journal-only ones an action on one of its providers, are shown.
 */
public final class ActionStatusTool {
  private final Sluice sluice;
  private final ActionBook book;
  private final ResultMaps results;

  public ActionStatusTool(Sluice sluice, ActionBook book, ResultMaps results) {
    this.sluice = sluice;
    this.book = book;
    this.results = results;
  }

  public McpSchema.CallToolResult call(McpAgent agent, Map<String, Object> arguments) {
    Args a = new Args(arguments);
    String id = a.string("action_id").trim();
    Duration wait = a.optNumber("wait_seconds").map(s -> Duration.ofMillis(Math.round(s * 1000))).orElse(Duration.ZERO);
    Optional<ActionBook.Entry> entry = book.get(id, agent.id());
    if (entry.isPresent()) {
      ActionBook.Entry e = entry.get();
      Optional<Outcome> o = HttpRequestTool.awaitOutcome(e.outcome(), wait);
      return o.isPresent() ? results.done(e, o.get()) : results.pending(e);
    }
    Optional<ActionRecord> record = Optional.empty();
    if (!id.startsWith("mem-")) {
      try {
        record = sluice.action(ActionId.of(id)).filter(r -> agent.mayUse(r.scope().provider()));
      } catch (IllegalArgumentException malformed) {
        record = Optional.empty();
      }
    }
    if (record.isPresent()) {
      return results.journalOnly(record.get());
    }
    return results.refused(new ToolRefusal("unknown_action", "no action with id '" + id + "' is known to this server for agent '" + agent.id()
        + "'; use the action_id an http_request answered (mem- ids last only while the server runs)"), Optional.empty(), Optional.empty(),
        Optional.empty(), Optional.empty());
  }
}
