package dev.sluice.mcp.internal;

import dev.sluice.core.Sluice;
import dev.sluice.core.policy.Provider;
import dev.sluice.core.scope.ScopeRecord;
import dev.sluice.gateway.ScopeJson;
import dev.sluice.mcp.McpAgent;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code list_scopes}: the seed's scope record of each provider the agent may use ({@code provider,
 * scope, request_class, next_allowed_at, remaining, reset_after_seconds, source}), with the calls
 * queued and in flight on it now.
 */
public final class ListScopesTool {
  private final Sluice sluice;

  public ListScopesTool(Sluice sluice) {
    this.sluice = sluice;
  }

  public McpSchema.CallToolResult call(McpAgent agent, Map<String, Object> arguments) {
    Optional<String> only = new Args(arguments).optString("provider");
    Map<String, Object> out = new LinkedHashMap<>();
    List<Map<String, Object>> scopes = new ArrayList<>();
    out.put("scopes", scopes);
    if (only.isPresent() && (sluice.policy().provider(only.get()).isEmpty() || !agent.mayUse(only.get()))) {
      out.put("reason", "provider_not_allowed: agent '" + agent.id() + "' may use only " + agent.providers());
      return ResultMaps.result(out, "Refused: " + out.get("reason"), true);
    }
    List<ScopeRecord> records = sluice.scopes();
    for (String id : agent.providers()) {
      Optional<Provider> p = sluice.policy().provider(id);
      if (p.isEmpty() || only.isPresent() && !only.get().equals(id)) {
        continue;
      }
      Map<String, Object> m = records.stream().filter(r -> r.provider().equals(id)).findFirst().map(ScopeJson::of).orElseGet(() -> {
        Map<String, Object> blank = new LinkedHashMap<>();
        blank.put("provider", id);
        blank.put("scope", p.get().scope());
        blank.put("request_class", null);
        blank.put("next_allowed_at", null);
        blank.put("remaining", null);
        blank.put("reset_after_seconds", null);
        blank.put("source", "no response yet");
        return blank;
      });
      m.put("queued", sluice.queue(id).size());
      m.put("in_flight", sluice.inFlight(id));
      scopes.add(m);
    }
    out.put("reason", null);
    StringBuilder text = new StringBuilder();
    for (Map<String, Object> s : scopes) {
      text.append(s.get("provider")).append(" (").append(s.get("scope")).append("): ")
          .append(s.get("next_allowed_at") == null ? "no hold" : "on hold until " + s.get("next_allowed_at") + ", do not call before then")
          .append(s.get("remaining") == null ? "" : "; remaining " + s.get("remaining")).append("; ").append(s.get("queued")).append(" queued, ")
          .append(s.get("in_flight")).append(" in flight; source: ").append(s.get("source")).append('\n');
    }
    return ResultMaps.result(out, text.toString().strip(), false);
  }
}
