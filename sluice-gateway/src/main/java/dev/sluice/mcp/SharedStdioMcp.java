package dev.sluice.mcp;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.core.Sluice;
import dev.sluice.core.journal.DataDirInUseException;
import dev.sluice.mcp.internal.ResultMaps;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.server.McpServerFeatures;
import io.modelcontextprotocol.server.McpSyncServerExchange;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.http.HttpRequest;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code sluice mcp} as several MCP clients on one machine run it: one stdio server per client,
 * all on the same data_dir, sharing one engine — one view of each quota scope, one journal.
 *
 * <p>The first server to start holds the data_dir: it runs the engine and an {@link McpHub} on a
 * loopback port. Each later one finds the data_dir held ({@link DataDirInUseException}) and relays
 * its tool calls to that hub as an MCP client. If the hub goes away (its MCP client closed it), the
 * next call finds out, and the relay takes the data_dir over (the journal's open actions resume
 * there, as at any start) or, when another relay was quicker, relays to the new hub. A call that
 * was on its way when the hub went away is not repeated when it could have had an effect: {@code
 * http_request} answers that it was interrupted and must not be resent blindly; the read-only
 * tools and {@code cancel_task} are repeated on the new engine.
 */
public final class SharedStdioMcp implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(SharedStdioMcp.class);
  private static final int CONNECT_TRIES = 20;
  private static final Duration CONNECT_PAUSE = Duration.ofMillis(250);

  private final Supplier<Sluice> open;
  private final Path dataDir;
  private final McpAgent agent;
  private final McpSettings settings;
  private final Duration callTimeout;
  private final Object switching = new Object();
  private volatile Backend backend;
  private StdioMcpServer server;

  private SharedStdioMcp(Supplier<Sluice> open, Path dataDir, McpAgent agent, McpSettings settings, Duration callTimeout) {
    this.open = open;
    this.dataDir = dataDir;
    this.agent = agent;
    this.settings = settings;
    this.callTimeout = callTimeout;
  }

  /**
   * Serves {@code agent}'s tools on {@code in}/{@code out}: on its own engine when {@code open}
   * can take the data_dir, else through the hub of the process that holds it.
   *
   * @param open builds the engine on the data_dir's journal; throws {@link DataDirInUseException}
   *     when another process holds it
   * @throws IllegalStateException when neither works (the message says why, in one line)
   */
  public static SharedStdioMcp start(Supplier<Sluice> open, Path dataDir, McpAgent agent, McpSettings settings, InputStream in, OutputStream out) {
    return start(open, dataDir, agent, settings, Duration.ofMinutes(15), in, out);
  }

  static SharedStdioMcp start(Supplier<Sluice> open, Path dataDir, McpAgent agent, McpSettings settings, Duration callTimeout, InputStream in,
      OutputStream out) {
    SharedStdioMcp mcp = new SharedStdioMcp(Objects.requireNonNull(open, "open"), Objects.requireNonNull(dataDir, "dataDir"),
        Objects.requireNonNull(agent, "agent"), Objects.requireNonNull(settings, "settings"), callTimeout);
    mcp.backend = mcp.connect(Optional.empty());
    List<McpServerFeatures.SyncToolSpecification> tools = SluiceMcpTools.definitions().stream()
        .map(t -> McpServerFeatures.SyncToolSpecification.builder().tool(t).callHandler(mcp::call).build()).toList();
    mcp.server = StdioMcpServer.start(tools, StdioMcpServer.instructions(agent), in, out);
    return mcp;
  }

  /** Whether this server runs the engine itself (true) or relays to another process's hub. */
  public boolean holdsDataDir() {
    return backend instanceof Local;
  }

  /** Blocks until the client closes the input. */
  public void awaitClosed() throws InterruptedException {
    server.awaitClosed();
  }

  /** Blocks until the client closes the input, at most {@code timeout}; true when it did. */
  public boolean awaitClosed(Duration timeout) throws InterruptedException {
    return server.awaitClosed(timeout);
  }

  @Override
  public void close() {
    if (server != null) {
      server.close();
    }
    synchronized (switching) {
      if (backend != null) {
        backend.close();
      }
    }
  }

  private McpSchema.CallToolResult call(McpSyncServerExchange exchange, McpSchema.CallToolRequest request) {
    Backend b = backend;
    try {
      return b.call(exchange, request);
    } catch (BackendLost lost) {
      LOG.warn("the Sluice process serving this MCP session went away ({}); taking over or relaying to the new one", lost.getMessage());
      Backend next;
      try {
        next = replace(b);
      } catch (RuntimeException e) {
        return SluiceMcpTools.failure(request.name(), "sluice_unavailable", "no Sluice process can carry this call now: " + e.getMessage());
      }
      if (request.name().equals("http_request") && !lost.notDelivered) {
        return ResultMaps.interrupted("the process that served it stopped; " + (next instanceof Local ? "this one has taken over"
            : "another has taken over"));
      }
      try {
        return next.call(exchange, request); // not delivered, or a read or cancel_task: a repeat cannot double an effect
      } catch (BackendLost again) {
        return SluiceMcpTools.failure(request.name(), "sluice_unavailable", "the Sluice process serving this call went away: " + again.getMessage());
      }
    }
  }

  private Backend replace(Backend failed) {
    synchronized (switching) {
      if (backend != failed) {
        return backend; // another call already switched
      }
      failed.close();
      backend = connect(Optional.of(failed));
      return backend;
    }
  }

  /** The engine, when the data_dir is free; else the hub of the process that holds it. Retries briefly while a hub starts or stops. */
  private Backend connect(Optional<Backend> previous) {
    RuntimeException last = null;
    for (int i = 0; i < CONNECT_TRIES; i++) {
      try {
        Sluice sluice = open.get();
        try {
          McpHub hub = McpHub.start(sluice, dataDir, settings);
          if (previous.isPresent()) {
            LOG.info("this stdio server now holds data_dir {} and serves the others", dataDir);
          }
          return new Local(sluice, hub, new SluiceMcpTools(sluice, settings, exchange -> Optional.of(agent)));
        } catch (RuntimeException e) {
          sluice.close();
          throw e;
        }
      } catch (DataDirInUseException held) {
        last = held;
      }
      Optional<McpHub.Address> hub = McpHub.read(dataDir);
      if (hub.isPresent() && hub.get().pid() != ProcessHandle.current().pid()) {
        try {
          return new Remote(hub.get(), agent, callTimeout);
        } catch (RuntimeException e) {
          last = e; // the hub is starting or has just stopped: try again
        }
      }
      try {
        Thread.sleep(CONNECT_PAUSE.toMillis()); // a hub starting or stopping takes a moment; bounded by CONNECT_TRIES
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      }
    }
    throw new IllegalStateException("data_dir " + dataDir + " is held by another Sluice process that serves no MCP hub here ("
        + (last == null ? "no answer" : last.getMessage()) + "); a gateway (sluice serve) serves MCP at /mcp instead: see docs/MCP.md");
  }

  /** Where calls go now. */
  private interface Backend extends AutoCloseable {
    McpSchema.CallToolResult call(McpSyncServerExchange exchange, McpSchema.CallToolRequest request);

    @Override
    void close();
  }

  /** The process that went away, or could not be reached. */
  private static final class BackendLost extends RuntimeException {
    /** The call never reached the other process (its port refused the connection): repeating it cannot double anything. */
    final boolean notDelivered;

    BackendLost(String message, Throwable cause, boolean notDelivered) {
      super(message, cause, false, false);
      this.notDelivered = notDelivered;
    }
  }

  /** This process holds the data_dir: the tools on its own engine, and the hub for the others. */
  private static final class Local implements Backend {
    private final Sluice sluice;
    private final McpHub hub;
    private final Map<String, McpServerFeatures.SyncToolSpecification> tools;

    Local(Sluice sluice, McpHub hub, SluiceMcpTools tools) {
      this.sluice = sluice;
      this.hub = hub;
      this.tools = tools.specifications().stream().collect(Collectors.toMap(s -> s.tool().name(), Function.identity()));
    }

    @Override
    public McpSchema.CallToolResult call(McpSyncServerExchange exchange, McpSchema.CallToolRequest request) {
      McpServerFeatures.SyncToolSpecification spec = tools.get(request.name());
      if (spec == null) {
        return SluiceMcpTools.failure("list_providers", "unknown_tool", "no tool named '" + request.name() + "'");
      }
      return spec.callHandler().apply(exchange, request);
    }

    @Override
    public void close() {
      hub.close();
      sluice.close();
    }
  }

  /** Another process holds the data_dir: its hub carries the calls. */
  private static final class Remote implements Backend {
    private final McpSyncClient client;

    Remote(McpHub.Address hub, McpAgent agent, Duration callTimeout) {
      String base = hub.url().getScheme() + "://" + hub.url().getAuthority();
      HttpClientStreamableHttpTransport transport = HttpClientStreamableHttpTransport.builder(base)
          .endpoint(hub.url().getPath())
          .requestBuilder(HttpRequest.newBuilder().header("Authorization", "Bearer " + hub.tokenFor(agent.id())))
          .jsonMapper(new JacksonMcpJsonMapper(new ObjectMapper()))
          .connectTimeout(Duration.ofSeconds(2))
          .build();
      this.client = McpClient.sync(transport).requestTimeout(callTimeout).initializationTimeout(Duration.ofSeconds(10))
          .clientInfo(new McpSchema.Implementation("sluice-mcp-relay", StdioMcpServer.version())).build();
      try {
        client.initialize();
      } catch (RuntimeException e) {
        client.closeGracefully();
        throw new IllegalStateException("the MCP hub at " + hub.url() + " did not answer: " + e.getMessage(), e);
      }
      LOG.info("data_dir is held by process {}: relaying to its MCP hub at {}", hub.pid(), hub.url());
    }

    @Override
    public McpSchema.CallToolResult call(McpSyncServerExchange exchange, McpSchema.CallToolRequest request) {
      try {
        return client.callTool(request);
      } catch (McpError e) {
        // The hub answered with a JSON-RPC error: it is there, so this is not a lost hub.
        return SluiceMcpTools.failure(request.name(), "hub_error", "the Sluice process serving this call refused it: " + e.getMessage());
      } catch (RuntimeException e) {
        throw new BackendLost(e.getClass().getSimpleName() + ": " + e.getMessage(), e, refused(e));
      }
    }

    private static boolean refused(Throwable e) {
      for (Throwable c = e; c != null; c = c.getCause()) {
        if (c instanceof java.net.ConnectException) {
          return true;
        }
      }
      return false;
    }

    @Override
    public void close() {
      try {
        client.closeGracefully();
      } catch (RuntimeException e) {
        LOG.debug("closing the relay's client: {}", e.toString());
      }
    }
  }
}
