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
  private volatile boolean closed;
  private volatile StdioMcpServer server;

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
    try {
      mcp.server = StdioMcpServer.start(tools, StdioMcpServer.instructions(agent), in, out);
    } catch (RuntimeException e) {
      mcp.close(); // the engine and hub it opened, or its relay client
      throw e;
    }
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
    closed = true; // first: a call failing because of this close must not take the data_dir over
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
      // An http_request the other process may have received may have been sent: it is never repeated, and never
      // reported as "nothing was sent" (the model would resend it; the journal resumes it anyway).
      boolean mayHaveActed = request.name().equals("http_request") && !lost.notDelivered;
      if (closed) {
        return mayHaveActed ? ResultMaps.interrupted("this MCP server is stopping")
            : SluiceMcpTools.failure(request.name(), "sluice_unavailable", "this MCP server is stopping");
      }
      LOG.warn("the Sluice process serving this MCP session went away ({}); taking over or relaying to the new one", lost.getMessage());
      Backend next;
      try {
        next = replace(b);
      } catch (RuntimeException e) {
        return mayHaveActed ? ResultMaps.interrupted("the process that served it stopped, and no other could take over: " + e.getMessage())
            : SluiceMcpTools.failure(request.name(), "sluice_unavailable", "no Sluice process can carry this call now: " + e.getMessage());
      }
      if (mayHaveActed) {
        return ResultMaps.interrupted("the process that served it stopped; " + (next instanceof Local ? "this one has taken over"
            : "another has taken over"));
      }
      try {
        return next.call(exchange, request); // not delivered, or a read or cancel_task: a repeat cannot double an effect
      } catch (BackendLost again) {
        return request.name().equals("http_request") && !again.notDelivered
            ? ResultMaps.interrupted("the process that took over stopped too")
            : SluiceMcpTools.failure(request.name(), "sluice_unavailable", "the Sluice process serving this call went away: " + again.getMessage());
      }
    }
  }

  private Backend replace(Backend failed) {
    synchronized (switching) {
      if (closed) {
        throw new IllegalStateException("this MCP server is stopping");
      }
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
    int refusedByLiveHub = 0;
    for (int i = 0; i < CONNECT_TRIES && !closed; i++) {
      try {
        Sluice sluice = open.get();
        McpHub hub = null;
        try {
          hub = McpHub.start(sluice, dataDir, settings);
          if (previous.isPresent()) {
            LOG.info("this stdio server now holds data_dir {} and serves the others", dataDir);
          }
          return new Local(sluice, hub, new SluiceMcpTools(sluice, settings, exchange -> Optional.of(agent)));
        } catch (RuntimeException e) {
          if (hub != null) {
            hub.close();
          }
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
          if (alive(hub.get().pid()) && ++refusedByLiveHub >= 3) {
            // Its process runs and names itself, yet does not take this server: not a start or stop in progress.
            throw new IllegalStateException("the Sluice process " + hub.get().pid() + " holding data_dir " + dataDir + " did not accept this"
                + " server as agent '" + agent.id() + "' (" + e.getMessage() + "); is --agent one of its policy's agents, and do both use the"
                + " same policy file?");
          }
        }
      }
      try {
        Thread.sleep(CONNECT_PAUSE.toMillis()); // a hub starting or stopping takes a moment; bounded by CONNECT_TRIES
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      }
    }
    if (closed) {
      throw new IllegalStateException("this MCP server is stopping");
    }
    throw new IllegalStateException("data_dir " + dataDir + " is held by another Sluice process that names no MCP hub here ("
        + (last == null ? "no answer" : last.getMessage()) + "); run sluice serve on it (stdio servers relay to it) or point the"
        + " MCP client at its /mcp: see docs/MCP.md");
  }

  static boolean alive(long pid) {
    return pid > 0 && ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
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
    private final long pid;

    Remote(McpHub.Address hub, McpAgent agent, Duration callTimeout) {
      this.pid = hub.pid();
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
        // The hub answered with a JSON-RPC error: it is there. A malformed request was refused before anything ran;
        // any other error may have come after an http_request was journaled or sent.
        Integer code = e.getJsonRpcError() == null ? null : e.getJsonRpcError().code();
        boolean beforeRunning = code != null && (code == McpSchema.ErrorCodes.METHOD_NOT_FOUND || code == McpSchema.ErrorCodes.INVALID_PARAMS);
        if (request.name().equals("http_request") && !beforeRunning) {
          return ResultMaps.interrupted("the Sluice process serving it failed on it (" + e.getMessage() + ")");
        }
        return SluiceMcpTools.failure(request.name(), "hub_error", "the Sluice process serving this call refused it: " + e.getMessage());
      } catch (RuntimeException e) {
        if (!refused(e) && alive(pid)) {
          // Not a lost hub (a timeout, say): its process still runs and may still be carrying the call. Nothing is switched.
          return request.name().equals("http_request") ? ResultMaps.interrupted("no answer from the Sluice process serving it ("
              + e.getClass().getSimpleName() + "); it may still be carrying the call")
              : SluiceMcpTools.failure(request.name(), "sluice_unavailable", "no answer from the Sluice process serving this call: " + e.getMessage());
        }
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
