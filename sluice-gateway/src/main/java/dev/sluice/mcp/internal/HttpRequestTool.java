package dev.sluice.mcp.internal;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.core.Call;
import dev.sluice.core.Sluice;
import dev.sluice.core.Submission;
import dev.sluice.core.engine.Outcome;
import dev.sluice.core.engine.Priority;
import dev.sluice.core.policy.PathSafety;
import dev.sluice.core.policy.Provider;
import dev.sluice.core.policy.Route;
import dev.sluice.gateway.internal.TaskNames;
import dev.sluice.mcp.McpAgent;
import dev.sluice.mcp.McpSettings;
import io.modelcontextprotocol.spec.McpSchema;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * {@code http_request}: one provider call through Sluice. Everything the agent controls is checked
 * first, and a mistake is refused with nothing sent: a provider the agent may not use, a reserved
 * header, a body that says it is JSON and is not, a body on GET or HEAD. The call is then started
 * ({@link Sluice#start}) and its outcome awaited up to {@code wait_seconds}; past that the answer
 * is {@code state: delayed} with the action id and due time.
 */
public final class HttpRequestTool {
  /** Header fields the agent may not set: Sluice's credential and framing, hop-by-hop fields. */
  static final Set<String> RESERVED_HEADERS = Set.of("authorization", "proxy-authorization", "host", "cookie", "content-length", "connection",
      "keep-alive", "te", "trailer", "transfer-encoding", "upgrade", "proxy-connection", "proxy-authenticate", "expect");
  private static final ObjectMapper JSON = new ObjectMapper();

  private final Sluice sluice;
  private final ActionBook book;
  private final ResultMaps results;
  private final McpSettings settings;

  public HttpRequestTool(Sluice sluice, ActionBook book, ResultMaps results, McpSettings settings) {
    this.sluice = sluice;
    this.book = book;
    this.results = results;
    this.settings = settings;
  }

  public McpSchema.CallToolResult call(McpAgent agent, String defaultTask, Map<String, Object> arguments) {
    Args a = new Args(arguments);
    Optional<String> providerArg = a.optString("provider");
    Optional<String> methodArg = a.optString("method").map(m -> m.trim().toUpperCase(Locale.ROOT));
    Optional<String> pathArg = a.optString("path");
    String task = a.optString("task").map(String::trim).filter(t -> !t.isEmpty()).orElse(defaultTask);
    try {
      String providerId = a.string("provider");
      Provider provider = sluice.policy().provider(providerId).filter(p -> agent.mayUse(p.id())).orElseThrow(() -> new ToolRefusal(
          "provider_not_allowed", "agent '" + agent.id() + "' may call only " + agent.providers() + "; '" + providerId
              + "' is not one of them (list_providers shows each provider's routes)"));
      String method = methodArg.orElseThrow();
      if (!Route.isMethod(method)) {
        throw new ToolRefusal("bad_method", "method must be an HTTP method such as GET or POST, got '" + method + "'");
      }
      String target = target(pathArg.orElseThrow(), a.optObject("query"));
      Optional<PathSafety.Refusal> unsafe = PathSafety.check(target);
      if (unsafe.isPresent()) {
        throw new ToolRefusal("unsafe_path", "unsafe path (" + unsafe.get().code() + "): " + unsafe.get().message()
            + "; send a plain path without dot-segments or encoded slashes");
      }
      // Per-call approval routes are not refused here: the engine holds the action (awaiting_approval) until an operator decides.
      Call.Builder b = Call.builder(providerId, method, target).task(TaskNames.internal(agent.id(), task)); // the agent's own namespace
      Map<String, Object> headers = a.optObject("headers");
      Set<String> names = new HashSet<>();
      for (Map.Entry<String, Object> h : headers.entrySet()) {
        String name = h.getKey().trim();
        String lower = name.toLowerCase(Locale.ROOT);
        if (RESERVED_HEADERS.contains(lower) || lower.startsWith("sluice-")
            || provider.credential().map(c -> c.header().equalsIgnoreCase(name)).orElse(false)) {
          throw new ToolRefusal("reserved_header", "headers." + name + " cannot be set: Sluice injects " + providerId
              + "'s credential and owns the connection (refused: Authorization, Proxy-Authorization, Cookie, Host, Content-Length, hop-by-hop fields"
              + provider.credential().map(c -> ", " + c.header()).orElse("") + ", Sluice-*); leave it out");
        }
        if (provider.idempotencyHeader().map(n -> n.equalsIgnoreCase(name)).orElse(false)) {
          throw new ToolRefusal("reserved_header", "headers." + name + " is " + providerId + "'s idempotency header: pass the key as idempotency_key"
              + " (or leave it out and Sluice mints one per call)");
        }
        if (!(h.getValue() instanceof String value)) {
          throw new ToolRefusal("invalid_arguments", "headers." + name + " must be a string");
        }
        names.add(lower);
        b.header(name, value);
      }
      body(a, method, names, b);
      a.optString("priority").ifPresent(p -> b.priority(p.equals("background") ? Priority.BACKGROUND : Priority.INTERACTIVE));
      a.optString("idempotency_key").ifPresent(b::idempotencyKey);
      a.optString("goal").map(String::trim).filter(g -> !g.isEmpty()).ifPresent(b::goal); // the dossier's goal, if a person must decide
      Duration wait = a.optNumber("wait_seconds").map(s -> Duration.ofMillis(Math.round(s * 1000))).orElse(settings.defaultWait());
      if (wait.compareTo(settings.maxWait()) > 0) {
        throw new ToolRefusal("invalid_arguments", "wait_seconds is at most " + settings.maxWait().toSeconds());
      }
      Call call = b.build();
      Submission s = sluice.start(call);
      ActionBook.Entry e = new ActionBook.Entry(ActionBook.idFor(s.actionId()), agent.id(), providerId, call.taskId(), task, a.optString("goal"), method,
          target,
          s.actionId(), settings.clock().instant(), s.outcome());
      book.add(e);
      return await(e, wait);
    } catch (ToolRefusal r) {
      return ResultMaps.refused(r, providerArg, methodArg, pathArg, Optional.of(task));
    }
  }

  /** The outcome if it comes within {@code wait}, else the pending state. */
  McpSchema.CallToolResult await(ActionBook.Entry e, Duration wait) {
    Optional<Outcome> o = awaitOutcome(e.outcome(), wait);
    return o.isPresent() ? results.done(e, o.get()) : results.pending(e);
  }

  static Optional<Outcome> awaitOutcome(CompletableFuture<Outcome> f, Duration wait) {
    if (f.isDone() || wait.isZero()) {
      return f.isDone() ? Optional.of(f.join()) : Optional.empty();
    }
    try {
      return Optional.of(f.get(wait.toMillis(), TimeUnit.MILLISECONDS));
    } catch (TimeoutException e) {
      return Optional.empty();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Optional.empty();
    } catch (ExecutionException e) {
      throw new IllegalStateException("the outcome failed: " + e.getCause(), e.getCause());
    }
  }

  private static String target(String path, Map<String, Object> query) {
    String p = path.trim();
    if (p.contains("://") || p.startsWith("//")) {
      throw new ToolRefusal("not_a_proxy", "path must be relative to the provider's base URL (/v1/...), not a URL: Sluice reaches only configured providers");
    }
    if (!p.startsWith("/")) {
      throw new ToolRefusal("bad_path", "path must start with /, e.g. /v1/invoices/inv_1, got '" + p + "'");
    }
    if (query.isEmpty()) {
      return p;
    }
    StringBuilder q = new StringBuilder();
    for (Map.Entry<String, Object> e : query.entrySet()) {
      for (Object v : Args.asList(e.getValue())) {
        if (v == null || v instanceof Map || v instanceof List) {
          throw new ToolRefusal("invalid_arguments", "query." + e.getKey() + " must be a string, number, boolean or an array of them");
        }
        q.append(q.isEmpty() ? "" : "&").append(encode(e.getKey())).append('=').append(encode(String.valueOf(v)));
      }
    }
    return p + (p.contains("?") ? "&" : "?") + q;
  }

  private static String encode(String s) {
    return URLEncoder.encode(s, StandardCharsets.UTF_8).replace("+", "%20");
  }

  private static void body(Args a, String method, Set<String> headerNames, Call.Builder b) {
    if (!a.has("body")) {
      return;
    }
    if (Route.isRead(method)) {
      throw new ToolRefusal("body_not_allowed", method + " requests carry no body; put parameters in query, or use the method the route expects");
    }
    Object body = a.raw("body");
    if (body instanceof String text) {
      if (looksJson(a)) {
        try {
          JSON.readTree(text);
        } catch (JsonProcessingException e) {
          throw new ToolRefusal("bad_json_body", "body is not valid JSON although Content-Type says JSON (" + e.getOriginalMessage()
              + "); send the body as a JSON value, or fix the text");
        }
      }
      b.body(text);
      return;
    }
    try {
      b.body(JSON.writeValueAsBytes(body));
    } catch (JsonProcessingException e) {
      throw new ToolRefusal("bad_json_body", "body could not be written as JSON: " + e.getOriginalMessage());
    }
    if (!headerNames.contains("content-type")) {
      b.header("Content-Type", "application/json");
    }
  }

  private static boolean looksJson(Args a) {
    for (Map.Entry<String, Object> h : a.optObject("headers").entrySet()) {
      if (h.getKey().trim().equalsIgnoreCase("content-type") && h.getValue() instanceof String v) {
        String t = v.toLowerCase(Locale.ROOT);
        return t.contains("/json") || t.contains("+json");
      }
    }
    return false;
  }
}
