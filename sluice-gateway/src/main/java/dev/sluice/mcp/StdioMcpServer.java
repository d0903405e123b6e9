package dev.sluice.mcp;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.core.Sluice;
import dev.sluice.mcp.internal.SerializedSendsProvider;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpServerFeatures;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.server.transport.StdioServerTransportProvider;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Sluice's MCP tools served over stdio ({@code sluice mcp}) for one agent: JSON-RPC messages, one
 * per line, on {@code in} and {@code out}; nothing else may write to {@code out} (logs go to
 * stderr). The server runs until {@code in} ends (the client closed the pipe) or {@link #close()}.
 *
 * <pre>{@code
 * try (Sluice sluice = Sluice.load(Path.of("sluice.yaml"));
 *      StdioMcpServer mcp = StdioMcpServer.start(sluice, agent, McpSettings.defaults(), System.in, System.out)) {
 *   mcp.awaitClosed();
 * }
 * }</pre>
 *
 * <p>The engine is the caller's: {@link #close()} stops the MCP server, not {@code sluice}.
 */
public final class StdioMcpServer implements AutoCloseable {
  /** The name the server gives in its MCP {@code serverInfo}. */
  public static final String SERVER_NAME = "sluice";

  private final McpSyncServer server;
  private final CountDownLatch inputEnded;

  private StdioMcpServer(McpSyncServer server, CountDownLatch inputEnded) {
    this.server = server;
    this.inputEnded = inputEnded;
  }

  /** Starts serving on {@code in}/{@code out} for {@code agent}. */
  public static StdioMcpServer start(Sluice sluice, McpAgent agent, McpSettings settings, InputStream in, OutputStream out) {
    Objects.requireNonNull(agent, "agent");
    SluiceMcpTools tools = new SluiceMcpTools(sluice, settings, exchange -> Optional.of(agent));
    return start(tools.specifications(), instructions(agent), in, out);
  }

  /**
   * Starts serving the given tools on {@code in}/{@code out} (a shared stdio server relaying to
   * another process uses this with tools of its own; see {@link SharedStdioMcp}).
   */
  public static StdioMcpServer start(List<McpServerFeatures.SyncToolSpecification> tools, String instructions, InputStream in, OutputStream out) {
    CountDownLatch ended = new CountDownLatch(1);
    InputStream watched = new FilterInputStream(Objects.requireNonNull(in, "in")) {
      @Override
      public int read() throws IOException {
        return ended(super.read());
      }

      @Override
      public int read(byte[] b, int off, int len) throws IOException {
        try {
          return ended(super.read(b, off, len));
        } catch (IOException e) {
          ended.countDown();
          throw e;
        }
      }

      private int ended(int n) {
        if (n < 0) {
          ended.countDown();
        }
        return n;
      }
    };
    JacksonMcpJsonMapper mapper = new JacksonMcpJsonMapper(new ObjectMapper());
    // The SDK's stdio transport loses a response when two tool calls finish at once; sends are serialized (see the class).
    SerializedSendsProvider transport = new SerializedSendsProvider(new StdioServerTransportProvider(mapper, watched, out));
    McpSyncServer server = McpServer.sync(transport)
        .serverInfo(SERVER_NAME, version())
        .instructions(instructions)
        .capabilities(McpSchema.ServerCapabilities.builder().tools(false).build())
        .jsonMapper(mapper)
        .validateToolInputs(false) // the tools check their arguments and answer in their own output shape
        .requestTimeout(Duration.ofMinutes(5))
        .tools(tools)
        .build();
    return new StdioMcpServer(server, ended);
  }

  static String version() {
    return Optional.ofNullable(StdioMcpServer.class.getPackage().getImplementationVersion()).orElse("0.1.0");
  }

  static String instructions(McpAgent agent) {
    return "Sluice calls HTTP APIs for you (agent " + agent.id() + ") under shared quotas: start with list_providers, call http_request, and follow"
        + " what each result says. A write whose outcome is unknown is looked up, never resent: do not rephrase and resend it yourself.";
  }

  /** Blocks until the client closes the input. */
  public void awaitClosed() throws InterruptedException {
    inputEnded.await();
  }

  /** Blocks until the client closes the input, at most {@code timeout}; true when it did. */
  public boolean awaitClosed(Duration timeout) throws InterruptedException {
    return inputEnded.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
  }

  @Override
  public void close() {
    server.closeGracefully();
  }
}
