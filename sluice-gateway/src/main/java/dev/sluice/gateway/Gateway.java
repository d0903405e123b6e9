package dev.sluice.gateway;

import dev.sluice.core.Sluice;
import dev.sluice.core.policy.Agent;
import dev.sluice.core.policy.ListenAddress;
import dev.sluice.core.policy.Policy;
import dev.sluice.core.policy.Provider;
import dev.sluice.core.policy.SecretRef;
import dev.sluice.core.policy.internal.BaseUrls;
import dev.sluice.core.transport.TransportSettings;
import dev.sluice.gateway.internal.ActionRegistry;
import dev.sluice.gateway.internal.GatewayHandler;
import dev.sluice.mcp.McpAgent;
import dev.sluice.mcp.McpHttpEndpoint;
import dev.sluice.mcp.McpHub;
import dev.sluice.mcp.McpSettings;
import org.eclipse.jetty.server.Handler;
import dev.sluice.gateway.internal.GatewayMetrics;
import dev.sluice.gateway.internal.TargetFormConnectionFactory;
import dev.sluice.gateway.internal.Tokens;
import java.util.concurrent.CompletableFuture;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.nio.file.Path;
import java.util.Optional;
import java.util.function.Function;
import org.eclipse.jetty.http.UriCompliance;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.handler.GracefulHandler;
import org.eclipse.jetty.util.VirtualThreads;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The HTTP egress gateway ({@code sluice serve}): agents send {@code METHOD /{provider}/{path}}
 * with their own token; Sluice applies the policy through the embedded {@link Sluice} facade and
 * answers with the provider's response or a problem document. The contract is docs/GATEWAY.md.
 *
 * <pre>{@code
 * try (Gateway g = Gateway.builder(policy).start()) {
 *   URI base = g.uri();   // http://127.0.0.1:7070
 * }
 * }</pre>
 *
 * <p>Jetty 12 core handlers on virtual threads (docs/decisions/0006-gateway-server.md); a request
 * waiting in an engine queue holds a {@link java.util.concurrent.CompletableFuture}, not a thread.
 *
 * <p>Start-up refuses: a provider named like a gateway endpoint ({@code v1}, {@code healthz},
 * {@code readyz}, {@code metrics}); a credential over plain http to a non-loopback host without
 * {@code allow_plain_http} (a hand-built policy skips the loader's check; this one does not);
 * an agent or operator token that cannot be read. {@code allow_plain_http} is logged as a warning.
 *
 * <p>{@link #close()} is graceful: it stops taking calls, lets attempts in flight finish for up to
 * {@link Builder#stopTimeout} (default 10 s), leaves queued and delayed actions in the journal for
 * the next start, then closes Sluice.
 */
public final class Gateway implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(Gateway.class);

  private final Server server;
  private final URI uri;
  private final GatewayHandler handler;
  private final LateMcp mcp;
  private final GatewayMetrics metrics;
  private final Duration stopTimeout;
  private final CompletableFuture<Sluice> started;
  private volatile boolean closed;
  private final Runnable withdrawHub;

  private Gateway(Server server, URI uri, GatewayHandler handler, LateMcp mcp, GatewayMetrics metrics, Duration stopTimeout,
      CompletableFuture<Sluice> started, Runnable withdrawHub) {
    this.withdrawHub = withdrawHub;
    this.server = server;
    this.uri = uri;
    this.handler = handler;
    this.mcp = mcp;
    this.metrics = metrics;
    this.stopTimeout = stopTimeout;
    this.started = started;
  }

  /** A builder for a gateway enforcing this policy. */
  public static Builder builder(Policy policy) {
    return new Builder(policy);
  }

  /** Where the gateway listens, e.g. {@code http://127.0.0.1:7070}. */
  public URI uri() {
    return uri;
  }

  /**
   * Completes once Sluice runs behind the gateway (the journal's open actions resumed) and
   * {@code /readyz} answers 200; fails when Sluice could not start.
   */
  public CompletableFuture<Gateway> ready() {
    return started.thenApply(s -> this);
  }

  /**
   * The facade behind the gateway.
   *
   * @throws IllegalStateException while the gateway is still starting (see {@link #ready()})
   */
  public Sluice sluice() {
    if (!started.isDone() || started.isCompletedExceptionally()) {
      throw new IllegalStateException("the gateway is not ready yet (or failed to start)");
    }
    return started.join();
  }

  /**
   * Counts one escalation in {@code sluice_escalations_total{provider}} (for the escalation
   * endpoints, when a person is handed an uncertain write).
   */
  public void countEscalation(String provider) {
    metrics.escalated(provider);
  }

  /**
   * Graceful stop: {@code /readyz} turns 503 and new agent calls are refused (503, nothing sent);
   * attempts in flight run to their end for up to the stop timeout and their agents get their
   * answers; queued and delayed actions stay in the journal for the next start, and the agents
   * still waiting for them are told so ({@code gateway_stopping}, with the action's
   * {@code Location}); then the listener closes and Sluice stops. Idempotent.
   */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    withdrawHub.run(); // no new stdio server relays here from now on
    handler.stopping();
    Sluice s = null;
    mcp.closeSessions(); // an MCP client's open listening stream would otherwise hold the stop to its timeout
    try {
      s = started.get(stopTimeout.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS);
    } catch (Exception e) {
      LOG.warn("closing a gateway that did not finish starting: {}", e.getClass().getSimpleName());
    }
    try {
      if (s != null) {
        if (!s.stopSending(stopTimeout)) {
          LOG.warn("attempts still in flight after {} s; they are cut off now (the journal resolves them at the next start)",
              stopTimeout.toSeconds());
        }
        handler.releaseWaiting();
      }
      server.stop();
    } catch (Exception e) {
      LOG.warn("gateway did not stop cleanly: {}", e.toString());
    } finally {
      mcp.stopEndpoint();
      if (s != null) {
        s.close();
      }
    }
  }

  /** Configures a {@link Gateway}. Not thread-safe. */
  public static final class Builder {
    private final Policy policy;
    private Sluice.Builder sluice;
    private Function<String, Optional<String>> env = name -> Optional.ofNullable(System.getenv(name));
    private ListenAddress listen;
    private Duration stopTimeout = Duration.ofSeconds(10);
    private Clock clock = Clock.systemUTC();
    // Finished actions remembered for GET /v1/actions/{id} (journaled ones answer from the journal after).
    private int registryCapacity = 10_000;
    private TransportSettings transportSettings = TransportSettings.defaults();
    private Duration idleTimeout = Duration.ofMinutes(5);
    private boolean mcpHub;

    private Builder(Policy policy) {
      this.policy = Objects.requireNonNull(policy, "policy");
    }

    /**
     * The facade builder to use, e.g. with a scheduler or seed (its policy, transport settings,
     * request cap and transport decorator are set by the gateway); default {@code
     * Sluice.builder().secrets(env)}.
     */
    public Builder sluice(Sluice.Builder b) {
      this.sluice = Objects.requireNonNull(b, "sluice");
      return this;
    }

    /**
     * Settings of the HTTP transport (timeouts, a task header to the provider); default {@link
     * TransportSettings#defaults()}. Its response cap is always set to {@code gateway.max_response_body_bytes}.
     */
    public Builder transportSettings(TransportSettings t) {
      this.transportSettings = Objects.requireNonNull(t, "transportSettings");
      return this;
    }

    /** Looks up {@code token_env} (agents, operator) and, by default, {@code secret_env}; default the process environment. */
    public Builder env(Function<String, Optional<String>> e) {
      this.env = Objects.requireNonNull(e, "env");
      return this;
    }

    /** Overrides the policy's {@code listen} (port 0: a free port). */
    public Builder listen(ListenAddress a) {
      this.listen = Objects.requireNonNull(a, "listen");
      return this;
    }

    /** How long {@link #close()} lets requests in flight finish; default 10 s. */
    public Builder stopTimeout(Duration d) {
      this.stopTimeout = Objects.requireNonNull(d, "stopTimeout");
      return this;
    }

    /**
     * How long an idle keep-alive connection stays open; default 5 minutes. A connection waiting
     * for an outcome is never cut by it.
     */
    public Builder idleTimeout(Duration d) {
      this.idleTimeout = Objects.requireNonNull(d, "idleTimeout");
      return this;
    }

    /**
     * Names this gateway in {@code <data_dir>/mcp-hub.json} once it runs, so that {@code sluice mcp}
     * started on the same policy relays its MCP clients' calls to this gateway's engine (one view
     * of each quota scope) instead of failing on the held data_dir. Default off; {@code sluice
     * serve} turns it on (it holds the data_dir's journal).
     */
    public Builder mcpHub(boolean on) {
      this.mcpHub = on;
      return this;
    }

    /** The clock for due times and Retry-After in answers; default UTC wall clock (use the engine's in tests). */
    public Builder clock(Clock c) {
      this.clock = Objects.requireNonNull(c, "clock");
      return this;
    }

    /**
     * Starts the gateway and returns once it is ready: listening, and Sluice running with the
     * journal's open actions resumed ({@link #bind()}, then {@link Gateway#ready()}).
     *
     * @throws IllegalStateException when the policy cannot be served (the message says why, never a secret)
     */
    public Gateway start() {
      Gateway g = bind();
      try {
        return g.ready().join();
      } catch (java.util.concurrent.CompletionException e) {
        g.close();
        if (e.getCause() instanceof RuntimeException r) {
          throw r;
        }
        throw new IllegalStateException("the gateway could not start: " + e.getCause(), e.getCause());
      }
    }

    /**
     * Checks the policy, binds the listener and returns at once; Sluice (and the resumption of the
     * journal's open actions) starts on another thread. Until {@link Gateway#ready()} completes,
     * {@code /healthz} answers 200, {@code /readyz} 503, and agent calls 503 {@code not_ready}
     * (nothing queued or sent).
     *
     * @throws IllegalStateException when the policy cannot be served or the address cannot be bound
     */
    public Gateway bind() {
      for (Provider p : policy.providers().values()) {
        if (GatewayHandler.RESERVED.contains(p.id()) || p.id().equals("mcp")) {
          throw new IllegalStateException("provider '" + p.id() + "' is named like a gateway endpoint (" + GatewayHandler.RESERVED + " and mcp); rename it");
        }
        if (p.credential().isPresent() && !BaseUrls.isHttpsOrLoopback(p.baseUrl())) {
          if (!p.allowPlainHttp()) {
            throw new IllegalStateException("provider '" + p.id() + "': the credential would travel over plain http to a non-loopback host; "
                + "use https or set allow_plain_http: true");
          }
          LOG.warn("provider '{}': allow_plain_http is set, its credential travels unencrypted to {}", p.id(), p.baseUrl().getHost());
        }
      }
      Map<String, String> agentTokens = new LinkedHashMap<>();
      for (Agent a : policy.agents()) {
        String t = read("agent '" + a.id() + "'", a.token());
        if (agentTokens.containsValue(t)) {
          // Two agents on one token would both act as the first: its providers, its tasks (review).
          throw new IllegalStateException("agent '" + a.id() + "': its token (" + a.token().describe() + ") is also another agent's; each needs its own");
        }
        agentTokens.put(a.id(), t);
      }
      Map<String, String> operator = new LinkedHashMap<>();
      Map<String, java.util.Set<dev.sluice.core.policy.OperatorPermission>> permissions = new LinkedHashMap<>();
      for (dev.sluice.core.policy.Operator o : policy.allOperators()) {
        String t = read("operator '" + o.id() + "'", o.token());
        if (operator.containsValue(t) || agentTokens.containsValue(t)) {
          throw new IllegalStateException("operator '" + o.id() + "': its token (" + o.token().describe() + ") is also another operator's or an agent's; "
              + "each needs its own");
        }
        operator.put(o.id(), t);
        permissions.put(o.id(), o.permissions());
      }
      if (operator.isEmpty()) {
        LOG.warn("no operator token configured (operator.token_env or operators): the admin API /v1/... is closed");
      }

      GatewayMetrics metrics = new GatewayMetrics(policy);
      GatewayHandler handler = new GatewayHandler(policy, new Tokens(agentTokens),
          new dev.sluice.gateway.internal.OperatorAccess(new Tokens(operator), permissions), new ActionRegistry(registryCapacity), metrics, clock);

      QueuedThreadPool pool = new QueuedThreadPool();
      pool.setName("sluice-gateway");
      pool.setVirtualThreadsExecutor(VirtualThreads.getNamedVirtualThreadsExecutor("sluice-gateway-vt"));
      Server server = new Server(pool);
      HttpConfiguration http = new HttpConfiguration();
      http.setSendServerVersion(false);
      http.setSendXPoweredBy(false);
      http.setRequestHeaderSize(policy.gateway().maxHeaderBytes());
      // The gateway judges paths itself (PathSafety) so that refusals are problem documents, not Jetty's 400 page.
      http.setUriCompliance(UriCompliance.UNSAFE);
      ServerConnector connector = new ServerConnector(server, new TargetFormConnectionFactory(http));
      ListenAddress at = listen != null ? listen : policy.listen();
      connector.setHost(at.host());
      connector.setPort(at.port());
      connector.setIdleTimeout(idleTimeout.toMillis());
      server.addConnector(connector);
      // MCP over streamable HTTP at /mcp, on the same engine once it runs; every other path is the gateway's.
      LateMcp mcp = new LateMcp(server);
      server.setHandler(new GracefulHandler(new Handler.Sequence(mcp, handler)));
      server.setStopTimeout(stopTimeout.toMillis());
      server.setErrorHandler(new ProblemErrorHandler());
      try {
        server.start();
      } catch (Exception e) {
        try {
          server.stop();
        } catch (Exception ignored) {
          // already failing; the start error is the one to report
        }
        throw new IllegalStateException("gateway could not listen on " + at + " (" + e.getMessage() + ")", e);
      }
      String host = at.host().contains(":") ? "[" + at.host() + "]" : at.host();
      URI uri = URI.create("http://" + host + ":" + connector.getLocalPort());
      LOG.info("gateway listening on {} ({} provider(s), {} agent(s)); resuming the journal", uri, policy.providers().size(), policy.agents().size());

      Sluice.Builder sb = sluice != null ? sluice : Sluice.builder().secrets(env);
      sb.policy(policy).transportSettings(transportSettings.withMaxResponseBytes(policy.gateway().maxResponseBodyBytes()))
          .maxRequestBytes(policy.gateway().maxRequestBodyBytes()).transportDecorator(metrics::count);
      CompletableFuture<Sluice> started = new CompletableFuture<>();
      String hubSecret = mcpHub ? McpHub.newSecret() : null;
      HubFile hub = new HubFile();
      Thread.ofVirtual().name("sluice-gateway-start").start(() -> {
        try {
          Sluice s = sb.build(); // opens the journal and resumes its open actions
          metrics.watch(s, clock);
          handler.attach(s);
          if (mcpHub) {
            // Agent tokens, and — from loopback only — the hub's own tokens for the stdio servers on this data_dir
            // (dev.sluice.mcp.SharedStdioMcp): a copy of mcp-hub.json elsewhere opens nothing over the network.
            Tokens tokens = new Tokens(agentTokens);
            var hubTokens = McpHub.tokens(policy, hubSecret);
            mcp.attach(McpHttpEndpoint.create(s, (token, loopback) -> tokens.owner(token).flatMap(id -> policy.agent(id)).map(McpAgent::of)
                .or(() -> loopback ? hubTokens.apply(token) : Optional.empty()), McpSettings.defaults().withClock(clock)));
            String local = at.host().equals("0.0.0.0") || at.host().equals("::") ? "127.0.0.1" : host;
            hub.publish(policy.dataDir(), new McpHub.Address(URI.create("http://" + local + ":" + connector.getLocalPort() + McpHttpEndpoint.PATH),
                hubSecret, ProcessHandle.current().pid()));
          } else {
            mcp.attach(McpHttpEndpoint.create(s, agentTokens, McpSettings.defaults().withClock(clock)));
          }
          LOG.info("gateway ready on {}", uri);
          started.complete(s);
        } catch (RuntimeException e) {
          started.completeExceptionally(e);
        }
      });
      return new Gateway(server, uri, handler, mcp, metrics, stopTimeout, started,
          mcpHub ? () -> hub.withdraw(policy.dataDir(), hubSecret) : () -> { });
    }

    private String read(String who, SecretRef ref) {
      String value = switch (ref) {
        case SecretRef.Env e -> env.apply(e.variable()).orElseThrow(() -> new IllegalStateException(who + ": token_env " + e.variable() + " is not set"));
        case SecretRef.File f -> {
          try {
            yield Files.readString(f.path(), StandardCharsets.UTF_8);
          } catch (IOException | RuntimeException x) {
            throw new IllegalStateException(who + ": token_file " + f.path() + " cannot be read (" + x.getClass().getSimpleName() + ")");
          }
        }
      };
      String t = value.strip();
      if (t.length() < 16) {
        throw new IllegalStateException(who + ": the token from " + ref.describe() + " is shorter than 16 characters; use a long random token");
      }
      return t;
    }
  }

  /** The gateway's entry in mcp-hub.json: published once it runs, never after it was withdrawn (a stop during start). */
  private static final class HubFile {
    private boolean withdrawn; // guarded by this

    synchronized void publish(Path dataDir, McpHub.Address address) {
      if (withdrawn) {
        return;
      }
      try {
        McpHub.publish(dataDir, address);
      } catch (IllegalStateException e) {
        LOG.warn("stdio MCP servers on this data_dir cannot relay to this gateway: {}", e.getMessage()); // the gateway itself works
      }
    }

    synchronized void withdraw(Path dataDir, String secret) {
      withdrawn = true;
      McpHub.withdraw(dataDir, secret);
    }
  }
}
