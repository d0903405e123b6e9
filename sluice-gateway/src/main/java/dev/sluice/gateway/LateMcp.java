package dev.sluice.gateway;

import dev.sluice.gateway.internal.Http;
import dev.sluice.gateway.internal.Problem;
import dev.sluice.mcp.McpHttpEndpoint;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.util.Callback;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The gateway's {@code /mcp} route, whose endpoint exists only once Sluice runs (the listener binds
 * first, and Sluice starts, resuming the journal, on another thread). Until then {@code /mcp}
 * answers 503 {@code not_ready} like the agent routes; other paths pass to the next handler. The
 * endpoint is started and stopped here because it joins the server after the server started.
 */
final class LateMcp extends Handler.Abstract {
  private static final Logger LOG = LoggerFactory.getLogger(LateMcp.class);
  private final Server server;
  private volatile McpHttpEndpoint endpoint;

  LateMcp(Server server) {
    this.server = server;
  }

  /** Starts the endpoint and routes {@code /mcp} to it from now on. */
  void attach(McpHttpEndpoint e) {
    try {
      e.setServer(server);
      e.start();
    } catch (Exception ex) {
      throw new IllegalStateException("the MCP endpoint could not start: " + ex, ex);
    }
    endpoint = e;
  }

  @Override
  public boolean handle(Request request, Response response, Callback callback) throws Exception {
    String path = request.getHttpURI().getPath();
    if (path == null || !(path.equals(McpHttpEndpoint.PATH) || path.startsWith(McpHttpEndpoint.PATH + "/"))) {
      return false;
    }
    McpHttpEndpoint e = endpoint;
    if (e == null) {
      response.getHeaders().put("Retry-After", "1");
      Http.writeProblem(response, Problem.refused(503, "not_ready", "Sluice is starting",
          "the gateway is resuming its journal; MCP is served once it is ready", "try again in a moment"), callback);
      return true;
    }
    return e.handle(request, response, callback);
  }

  void closeSessions() {
    McpHttpEndpoint e = endpoint;
    if (e != null) {
      try {
        e.closeSessions();
      } catch (RuntimeException ex) {
        LOG.warn("MCP sessions did not close cleanly: {}", ex.toString());
      }
    }
  }

  void stopEndpoint() {
    McpHttpEndpoint e = endpoint;
    if (e != null) {
      try {
        e.stop();
      } catch (Exception ex) {
        LOG.warn("the MCP endpoint did not stop cleanly: {}", ex.toString());
      }
    }
  }
}
