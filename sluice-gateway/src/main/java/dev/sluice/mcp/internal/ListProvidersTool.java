package dev.sluice.mcp.internal;

import dev.sluice.core.Sluice;
import dev.sluice.core.policy.Policy;
import dev.sluice.core.policy.Provider;
import dev.sluice.core.policy.RequestClass;
import dev.sluice.core.policy.Route;
import dev.sluice.mcp.McpAgent;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * {@code list_providers}: the providers and routes this agent may use, so a model can plan: each
 * route's request class and budget, whether it is a write, whether its retries carry one
 * idempotency key, whether an uncertain write is reconciled by a look-up, and whether each call
 * needs an operator's approval. Never a credential: only whether Sluice injects one.
 */
public final class ListProvidersTool {
  private final Sluice sluice;

  public ListProvidersTool(Sluice sluice) {
    this.sluice = sluice;
  }

  /** What happens to a write of this route whose outcome is unknown, in words. */
  private static String uncertainWrite(Provider p, Route r) {
    if (r.lookup().isPresent()) {
      return ", an uncertain write is looked up, never resent blindly";
    }
    if (p.idempotencyHeader().isPresent()) {
      return ", an uncertain write is resent only with its one idempotency key";
    }
    return ", an uncertain write goes to an operator";
  }

  public McpSchema.CallToolResult call(McpAgent agent, Map<String, Object> arguments) {
    Policy policy = sluice.policy();
    List<Map<String, Object>> providers = new ArrayList<>();
    StringBuilder text = new StringBuilder();
    for (String id : agent.providers()) {
      Optional<Provider> found = policy.provider(id);
      if (found.isEmpty()) {
        continue;
      }
      Provider p = found.get();
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("id", p.id());
      m.put("base_url", p.baseUrl().toString());
      m.put("scope", p.scope());
      m.put("credential_injected", p.credential().isPresent());
      m.put("idempotency_header", p.idempotencyHeader().orElse(null));
      m.put("rate", p.rate().map(r -> String.format(Locale.ROOT, "%d requests per %d s, %.0f%% kept for interactive work", r.requests(),
          r.per().toSeconds(), r.interactiveReserve() * 100)).orElse(null));
      List<Map<String, Object>> routes = new ArrayList<>();
      text.append(p.id()).append(" (scope ").append(p.scope()).append("):\n");
      for (Route r : p.routes()) {
        RequestClass rc = policy.requestClass(r.requestClass());
        boolean write = !Route.isRead(r.method());
        Map<String, Object> route = new LinkedHashMap<>();
        route.put("method", r.method());
        route.put("path", r.path().template());
        route.put("request_class", rc.name());
        route.put("max_attempts", rc.maxAttempts());
        route.put("max_wait_seconds", rc.maxWait().toMillis() / 1000.0);
        route.put("retry_statuses", rc.retryStatuses());
        route.put("write", write);
        route.put("immutable", r.immutable());
        route.put("idempotent", write && p.idempotencyHeader().isPresent() && rc.allowsRetry());
        route.put("reconciled", write && r.lookup().isPresent());
        route.put("approval", r.approval().configName());
        routes.add(route);
        text.append("  ").append(r.method()).append(' ').append(r.path().template()).append(": ").append(rc.name()).append(", up to ")
            .append(rc.maxAttempts()).append(" attempt(s)").append(write ? uncertainWrite(p, r) : "").append(r.approval() == dev.sluice.core.policy.Approval.PER_CALL
                    ? ", each call waits for an operator's approval" : "").append('\n');
      }
      m.put("routes", routes);
      m.put("unmatched_routes", "GET and HEAD: class " + Route.unmatched("GET").requestClass() + "; any other method: class "
          + Route.unmatched("POST").requestClass() + " (one attempt; an uncertain outcome goes to an operator)");
      providers.add(m);
    }
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("agent", agent.id());
    out.put("providers", providers);
    return ResultMaps.result(out, text.length() == 0 ? "Agent " + agent.id() + " may use no provider." : text.toString().strip(), false);
  }
}
