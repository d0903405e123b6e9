package dev.sluice.mcp;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.core.Sluice;
import dev.sluice.mcp.internal.ActionBook;
import dev.sluice.mcp.internal.ActionStatusTool;
import dev.sluice.mcp.internal.CancelTaskTool;
import dev.sluice.mcp.internal.HttpRequestTool;
import dev.sluice.mcp.internal.ListProvidersTool;
import dev.sluice.mcp.internal.ListScopesTool;
import dev.sluice.mcp.internal.ResultMaps;
import dev.sluice.mcp.internal.Schemas;
import dev.sluice.mcp.internal.ToolRefusal;
import io.modelcontextprotocol.json.schema.JsonSchemaValidator;
import io.modelcontextprotocol.json.schema.jackson2.DefaultJsonSchemaValidator;
import io.modelcontextprotocol.server.McpServerFeatures;
import io.modelcontextprotocol.server.McpSyncServerExchange;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import java.util.function.BiFunction;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sluice's MCP tools over one {@link Sluice} engine: {@code http_request}, {@code action_status},
 * {@code cancel_task}, {@code list_scopes} and {@code list_providers}, each with an input and an
 * output JSON schema (docs/MCP.md).
 *
 * <p>Contract: a tool call never ends in a JSON-RPC error. Arguments that do not match the input
 * schema, anything the agent may not do, every terminal outcome other than success, and any
 * exception inside a handler come back as a result with {@code isError: true}, a {@code
 * structuredContent} in the tool's output shape, and a short text written for a model. Nothing an
 * agent gets refused reaches a provider.
 *
 * <p>Who calls: {@code agentOf} names the agent of each call (a stdio server has one; the HTTP
 * endpoint takes it from the agent token). A call without an agent is refused.
 *
 * <p>Default task: a call without {@code task} runs in one task per MCP session ({@code
 * mcp-<agent>-<session>}), so that the circuit breaker, which counts identical failures per task,
 * sees a model repeating itself.
 */
public final class SluiceMcpTools {
  private static final Logger LOG = LoggerFactory.getLogger(SluiceMcpTools.class);
  /** The key of the agent in an HTTP request's {@link io.modelcontextprotocol.common.McpTransportContext}. */
  public static final String AGENT_KEY = "sluice.agent";

  private final Sluice sluice;
  private final Function<McpSyncServerExchange, Optional<McpAgent>> agentOf;
  private final JsonSchemaValidator validator = new DefaultJsonSchemaValidator(new ObjectMapper());
  private final String instanceId = UUID.randomUUID().toString().substring(0, 8);
  private final HttpRequestTool httpRequest;
  private final ActionStatusTool actionStatus;
  private final CancelTaskTool cancelTask;
  private final ListScopesTool listScopes;
  private final ListProvidersTool listProviders;
  private final ResultMaps results;

  /**
   * @param sluice the engine the tools call (not closed by them)
   * @param settings body cap, waits, clock
   * @param agentOf the agent of a call, from its exchange
   */
  public SluiceMcpTools(Sluice sluice, McpSettings settings, Function<McpSyncServerExchange, Optional<McpAgent>> agentOf) {
    this.sluice = Objects.requireNonNull(sluice, "sluice");
    this.agentOf = Objects.requireNonNull(agentOf, "agentOf");
    ActionBook book = new ActionBook(settings.actionsKept());
    this.results = new ResultMaps(sluice, settings);
    this.httpRequest = new HttpRequestTool(sluice, book, results, settings);
    this.actionStatus = new ActionStatusTool(sluice, book, results);
    this.cancelTask = new CancelTaskTool(sluice);
    this.listScopes = new ListScopesTool(sluice);
    this.listProviders = new ListProvidersTool(sluice);
  }

  /** The agent of an HTTP call, as the endpoint put it in the transport context. */
  public static Optional<McpAgent> agentFromContext(McpSyncServerExchange exchange) {
    return exchange.transportContext() == null ? Optional.empty()
        : Optional.ofNullable(exchange.transportContext().get(AGENT_KEY)).filter(McpAgent.class::isInstance).map(McpAgent.class::cast);
  }

  /** One tool's definition: what {@code tools/list} shows. */
  private record Def(String name, String title, String description, boolean readOnly) {}

  private static final List<Def> DEFS = List.of(
      new Def("http_request", "Call a provider's HTTP API through Sluice",
          "Send one HTTP request to a configured provider through Sluice, which injects the credential, paces the call under the provider's shared"
              + " quota, retries only when safe, and never repeats a write whose outcome is unknown (it looks it up instead). Returns the provider's"
              + " status, rate-limit headers and body (JSON parsed; truncated flag and cap), plus Sluice's record: action id, attempts, time waited,"
              + " scope state. A terminal failure comes back as an error result that says what not to do. If the outcome takes longer than"
              + " wait_seconds (default 20), the answer is state: delayed with the action id and due time: do other work and poll action_status;"
              + " never resend the call.",
          false),
      new Def("action_status", "State and outcome of an action",
          "Where an action started by http_request stands: state (done, delayed, awaiting_approval), due time, and once done the same result"
              + " http_request would have returned.", true),
      new Def("cancel_task", "Cancel a task's pending calls",
          "Cancel a task you used in http_request: its queued and delayed calls are never sent, and later calls in that task are refused.", false),
      new Def("list_scopes", "Shared quota scopes and their holds",
          "The shared quota scope of each provider you may use: next_allowed_at (do not call before it), remaining, reset_after_seconds,"
              + " source, and the calls queued and in flight.", true),
      new Def("list_providers", "Providers and routes you may use",
          "The providers and routes you may call through Sluice, with each route's request class and budget, whether it is a write, whether"
              + " its retries are idempotent, whether an uncertain write is reconciled by a look-up, and whether each call needs an operator's approval.",
          true));

  /** The five tools as {@code tools/list} shows them (names, schemas, annotations), without an engine. */
  public static List<McpSchema.Tool> definitions() {
    return DEFS.stream().map(SluiceMcpTools::tool).toList();
  }

  /** Whether a tool only reads (it may be repeated without effect). */
  public static boolean readOnly(String tool) {
    return DEFS.stream().anyMatch(d -> d.name().equals(tool) && d.readOnly());
  }

  /** The five tools, ready for {@code McpServer.sync(...).tools(...)}. */
  public List<McpServerFeatures.SyncToolSpecification> specifications() {
    Map<String, Handler> handlers = Map.of(
        "http_request", (ex, agent, args) -> httpRequest.call(agent, defaultTask(ex, agent), args),
        "action_status", (ex, agent, args) -> actionStatus.call(agent, args),
        "cancel_task", (ex, agent, args) -> cancelTask.call(agent, args),
        "list_scopes", (ex, agent, args) -> listScopes.call(agent, args),
        "list_providers", (ex, agent, args) -> listProviders.call(agent, args));
    return DEFS.stream().map(d -> spec(d, handlers.get(d.name()))).toList();
  }

  private static McpSchema.Tool tool(Def d) {
    Map<String, Object> input = Schemas.load(d.name() + ".input");
    Map<String, Object> output = Schemas.load(outputSchemaOf(d.name()));
    return McpSchema.Tool.builder(d.name(), input).title(d.title()).description(d.description()).outputSchema(output)
        .annotations(McpSchema.ToolAnnotations.builder().title(d.title()).readOnlyHint(d.readOnly())
            .destructiveHint(d.name().equals("http_request") ? Boolean.TRUE : null)
            .idempotentHint(d.readOnly()).openWorldHint(d.name().equals("http_request")).build())
        .build();
  }

  private String defaultTask(McpSyncServerExchange exchange, McpAgent agent) {
    String session = Optional.ofNullable(exchange).map(McpSyncServerExchange::sessionId).filter(s -> !s.isBlank()).orElse(instanceId);
    return "mcp-" + agent.id() + "-" + (session.length() > 12 ? session.substring(0, 12) : session);
  }

  @FunctionalInterface
  private interface Handler {
    McpSchema.CallToolResult call(McpSyncServerExchange exchange, McpAgent agent, Map<String, Object> arguments);
  }

  private McpServerFeatures.SyncToolSpecification spec(Def d, Handler handler) {
    String name = d.name();
    McpSchema.Tool tool = tool(d);
    Map<String, Object> input = Schemas.load(name + ".input");
    BiFunction<McpSyncServerExchange, McpSchema.CallToolRequest, McpSchema.CallToolResult> call = (exchange, request) -> {
      Map<String, Object> args = request.arguments() == null ? Map.of() : request.arguments();
      try {
        Optional<McpAgent> agent = agentOf.apply(exchange);
        if (agent.isEmpty()) {
          return failure(name, "unauthorized", "no agent is known for this session: authenticate with your agent token");
        }
        JsonSchemaValidator.ValidationResponse valid = validator.validate(input, args);
        if (!valid.valid()) {
          return failure(name, "invalid_arguments", "the arguments do not match " + name + "'s input schema: " + valid.errorMessage());
        }
        return handler.call(exchange, agent.get(), args);
      } catch (ToolRefusal r) {
        return failure(name, r.code(), r.getMessage());
      } catch (RuntimeException e) {
        LOG.warn("tool {} failed: {} (SLUICE_LOG_LEVEL=DEBUG for the stack trace)", name, e.getClass().getSimpleName());
        LOG.debug("tool {} failed", name, e);
        return failure(name, "internal_error", "Sluice failed on this call (" + e.getClass().getSimpleName() + "); if it was a write, check the"
            + " provider (or action_status) before repeating it");
      }
    };
    return McpServerFeatures.SyncToolSpecification.builder().tool(tool).callHandler(call).build();
  }

  private static String outputSchemaOf(String tool) {
    return switch (tool) {
      case "http_request", "action_status" -> "action.output";
      default -> tool + ".output";
    };
  }

  /** An isError result in the tool's output shape, for refusals outside the tools themselves. */
  public static McpSchema.CallToolResult failure(String tool, String code, String message) {
    ToolRefusal r = new ToolRefusal(code, message);
    return switch (tool) {
      case "http_request", "action_status" -> ResultMaps.refused(r, Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty());
      case "cancel_task" -> {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("task", "");
        m.put("state", "refused");
        m.put("cancelled", 0);
        m.put("reason", code + ": " + message);
        m.put("next_safe_action", "fix the call as the reason says");
        yield ResultMaps.result(m, "Refused (" + code + "): " + message, true);
      }
      case "list_scopes" -> {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("scopes", List.of());
        m.put("reason", code + ": " + message);
        yield ResultMaps.result(m, "Refused (" + code + "): " + message, true);
      }
      default -> {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("agent", "");
        m.put("providers", List.of());
        yield ResultMaps.result(m, "Refused (" + code + "): " + message, true);
      }
    };
  }
}
