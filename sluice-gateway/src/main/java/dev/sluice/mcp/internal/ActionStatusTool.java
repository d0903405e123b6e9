package dev.sluice.mcp.internal;

import dev.sluice.core.Sluice;
import dev.sluice.core.engine.Outcome;
import dev.sluice.core.engine.OutcomeCode;
import dev.sluice.core.journal.ActionId;
import dev.sluice.core.journal.ActionState;
import dev.sluice.core.journal.ActionRecord;
import dev.sluice.gateway.internal.TaskNames;
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
 * actions are shown (for journal-only ones: its task namespace {@code agent/...}, on a provider it
 * may use). An action held for approval answers {@code awaiting_approval} with its escalation id
 * until an operator decides; an escalated action an operator sends again is followed to its new outcome.
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
      ActionBook.Entry held = entry.get();
      ActionBook.Entry e = held;
      // An operator's decision (query_existing, retry_same_key) can run an escalated action again: follow its new outcome.
      if (e.outcome().isDone() && e.journalId().isPresent()) {
        Optional<java.util.concurrent.CompletableFuture<Outcome>> again = sluice.pending(e.journalId().get()).filter(f -> f != held.outcome());
        if (again.isPresent()) {
          e = e.withOutcome(again.get());
          book.add(e);
        } else {
          Optional<ActionRecord> r = sluice.action(e.journalId().get());
          OutcomeCode was = held.outcome().join().outcome();
          // Run again since (an escalation's decision): open again, or ended differently (the journal says "escalated" for an escalated outcome, so compare the ends that matter).
          if (r.isPresent() && (r.get().state().open() || (r.get().state() == ActionState.SUCCEEDED) != (was == OutcomeCode.SUCCEEDED)
              || (r.get().state() == ActionState.CANCELLED) != (was == OutcomeCode.CANCELLED))) {
            return results.journalOnly(r.get()); // decided and run again since; its new response is not held here
          }
        }
      }
      Optional<Outcome> o = HttpRequestTool.awaitOutcome(e.outcome(), wait);
      return o.isPresent() ? results.done(e, o.get()) : results.pending(e);
    }
    Optional<ActionRecord> record = Optional.empty();
    if (!id.startsWith("mem-")) {
      try {
        // Only the agent's own actions (its tasks are agent/task, as in the gateway), on a provider it may still use.
        record = sluice.action(ActionId.of(id)).filter(r -> agent.mayUse(r.scope().provider()))
            .filter(r -> TaskNames.split(r.taskId()).map(owner -> owner.agent().equals(agent.id())).orElse(false));
      } catch (IllegalArgumentException malformed) {
        record = Optional.empty();
      }
    }
    if (record.isPresent()) {
      return results.journalOnly(record.get());
    }
    return ResultMaps.refused(new ToolRefusal("unknown_action", "no action with id '" + id + "' is known to this server for agent '" + agent.id()
        + "'; use the action_id an http_request answered (mem- ids last only while the server runs)"), Optional.empty(), Optional.empty(),
        Optional.empty(), Optional.empty());
  }
}
