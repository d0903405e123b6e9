package dev.sluice.mcp;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.core.Sluice;
import dev.sluice.gateway.internal.Http;
import dev.sluice.gateway.internal.Problem;
import dev.sluice.gateway.internal.Tokens;
import io.modelcontextprotocol.common.McpTransportContext;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.server.transport.HttpServletStreamableServerTransportProvider;
import io.modelcontextprotocol.spec.McpSchema;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * MCP over streamable HTTP at {@code /mcp}, inside the gateway and on its engine: a Jetty handler to
 * put in front of the gateway's own. Requests to any other path are not handled here (it returns
 * false, so the next handler of a {@link Handler.Sequence} gets them).
 *
 * <p>Authentication: every request to {@code /mcp} must carry {@code Authorization: Bearer <agent
 * token>}; without a valid one the answer is {@code 401} with a problem document and nothing
 * reaches the MCP server. The agent of the token is put into the MCP transport context of each
 * request ({@link SluiceMcpTools#AGENT_KEY}), so a tool call acts for the agent whose token it
 * carries, with that agent's providers only.
 *
 * <p>The transport is the SDK's {@link HttpServletStreamableServerTransportProvider} (sessions,
 * JSON or SSE answers) hosted in a Jetty servlet context at {@code /mcp}.
 */
public final class McpHttpEndpoint extends Handler.Wrapper {
  /** The path MCP is served at. */
  public static final String PATH = "/mcp";

  private final AgentOfToken agentOfToken;
  private final McpSyncServer server;

  private McpHttpEndpoint(AgentOfToken agentOfToken, ServletContextHandler context, McpSyncServer server) {
    super(context);
    this.agentOfToken = agentOfToken;
    this.server = server;
  }

  /**
   * The endpoint for this engine.
   *
   * @param agentTokens agent id to its token
   */
  public static McpHttpEndpoint create(Sluice sluice, Map<String, String> agentTokens, McpSettings settings) {
    Tokens tokens = new Tokens(agentTokens);
    return create(sluice, (token, loopback) -> tokens.owner(token).flatMap(id -> sluice.policy().agent(id)).map(McpAgent::of), settings);
  }

  /** The agent of a bearer token, knowing whether the request came from a loopback address. */
  @FunctionalInterface
  public interface AgentOfToken {
    Optional<McpAgent> agent(String token, boolean fromLoopback);
  }

  /**
   * The endpoint for this engine, with the agent of each bearer token given by {@code
   * agentOfToken} (empty: refused with 401). A shared stdio server's hub uses its own tokens, which
   * the gateway accepts from loopback only.
   */
  public static McpHttpEndpoint create(Sluice sluice, AgentOfToken agentOfToken, McpSettings settings) {
    JacksonMcpJsonMapper mapper = new JacksonMcpJsonMapper(new ObjectMapper());
    HttpServletStreamableServerTransportProvider transport = HttpServletStreamableServerTransportProvider.builder()
        .jsonMapper(mapper)
        .mcpEndpoint(PATH)
        .contextExtractor(request -> Tokens.bearer(request.getHeader("Authorization")).flatMap(t -> agentOfToken.agent(t, loopback(request.getRemoteAddr())))
            .map(agent -> McpTransportContext.create(Map.of(SluiceMcpTools.AGENT_KEY, agent))).orElse(McpTransportContext.EMPTY))
        .maxRequestSize(Math.max(64 * 1024, sluice.policy().gateway().maxRequestBodyBytes() * 2))
        .build();
    SluiceMcpTools tools = new SluiceMcpTools(sluice, settings, SluiceMcpTools::agentFromContext);
    McpSyncServer server = McpServer.sync(transport)
        .serverInfo(StdioMcpServer.SERVER_NAME, StdioMcpServer.version())
        .instructions("Sluice calls HTTP APIs for you under shared quotas: start with list_providers, call http_request, and follow what each"
            + " result says. A write whose outcome is unknown is looked up, never resent: do not rephrase and resend it yourself.")
        .capabilities(McpSchema.ServerCapabilities.builder().tools(false).build())
        .jsonMapper(mapper)
        .validateToolInputs(false)
        .requestTimeout(Duration.ofMinutes(5))
        .tools(tools.specifications())
        .build();
    ServletContextHandler context = new ServletContextHandler(PATH);
    context.setAllowNullPathInContext(true);
    ServletHolder holder = new ServletHolder("mcp", transport);
    holder.setAsyncSupported(true);
    context.addServlet(holder, "/*");
    return new McpHttpEndpoint(agentOfToken, context, server);
  }

  @Override
  public boolean handle(Request request, Response response, Callback callback) throws Exception {
    String path = request.getHttpURI().getPath();
    if (path == null || !(path.equals(PATH) || path.startsWith(PATH + "/"))) {
      return false;
    }
    boolean fromLoopback = loopback(Request.getRemoteAddr(request));
    Optional<McpAgent> agent = Tokens.bearer(request.getHeaders().get("Authorization")).flatMap(t -> agentOfToken.agent(t, fromLoopback));
    if (agent.isEmpty()) {
      response.getHeaders().put("WWW-Authenticate", "Bearer realm=\"sluice\"");
      Http.writeProblem(response, Problem.refused(401, "unauthorized", "Agent token required",
          "MCP at /mcp needs Authorization: Bearer <your agent token> (the token configured for your agent, not a provider credential)",
          "configure your MCP client to send your agent token"), callback);
      return true;
    }
    return super.handle(request, response, callback);
  }

  /** Whether a remote address (an IP literal, as the server reports it) is a loopback address. */
  static boolean loopback(String remote) {
    return dev.sluice.core.policy.internal.BaseUrls.isLoopbackLiteral(remote);
  }

  /** Closes the MCP sessions; the engine is the gateway's. */
  public void closeSessions() {
    server.closeGracefully();
  }

  /** The MCP server (for tests and the gateway's shutdown). */
  McpSyncServer server() {
    return Objects.requireNonNull(server);
  }
}
