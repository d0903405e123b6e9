package dev.sluice.gateway.internal;

import dev.sluice.gateway.ScopeJson;
import dev.sluice.core.Call;
import dev.sluice.core.Sluice;
import dev.sluice.core.classify.AttemptResult;
import dev.sluice.core.engine.Outcome;
import dev.sluice.core.engine.Priority;
import dev.sluice.core.engine.QueuedRequest;
import dev.sluice.core.http.Headers;
import dev.sluice.core.policy.Agent;
import dev.sluice.core.policy.GatewaySettings;
import dev.sluice.core.policy.OperatorPermission;
import dev.sluice.core.policy.PathSafety;
import dev.sluice.core.policy.Policy;
import dev.sluice.gateway.StatusTable;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The gateway's one Jetty handler. Agent calls ({@code METHOD /{provider}/{path}}) are checked,
 * turned into a {@link Call} and submitted; the answer is written when the outcome's future
 * completes, so a waiting request holds no thread. {@code /v1/...} is the admin API,
 * {@code /healthz}, {@code /readyz} and {@code /metrics} the operational endpoints.
 *
 * <p>Everything refused here is refused before {@link Sluice#submit}: nothing reaches a provider.
 * Log lines name the agent, method, provider and path (never the query, a header value or a body).
 *
 * <p>Not {@code NonBlocking}: submitting a write commits its journal row (an fsync) on the calling
 * thread, which must never be one of Jetty's selector threads; Jetty runs this handler on the
 * server's (virtual-thread) executor instead. Waiting for the outcome still holds no thread.
 */
public final class GatewayHandler extends Handler.Abstract {
  private static final Logger LOG = LoggerFactory.getLogger("dev.sluice.gateway");
  /** First path segments the gateway keeps for itself; no provider may be named so. */
  public static final Set<String> RESERVED = Set.of("v1", "healthz", "readyz", "metrics");
  /** Without {@code Prefer: wait}, answer 202 after this long rather than hold a connection forever. */
  static final Duration DEFAULT_WAIT = Duration.ofSeconds(120);

  private final Sluice sluice;
  private final Policy policy;
  private final GatewaySettings limits;
  private final Tokens agentTokens;
  private final OperatorAccess operators;
  private final AuditExport auditExport;
  private final ActionRegistry actions;
  private final GatewayMetrics metrics;
  private final Clock clock;
  private final AtomicBoolean ready = new AtomicBoolean(false);

  /** Every owner of {@code operatorTokens} has every permission (the single-operator setup). */
  public GatewayHandler(Sluice sluice, Tokens agentTokens, Tokens operatorTokens, ActionRegistry actions, GatewayMetrics metrics, Clock clock) {
    this(sluice, agentTokens, OperatorAccess.allPermissions(operatorTokens), actions, metrics, clock);
  }

  public GatewayHandler(Sluice sluice, Tokens agentTokens, OperatorAccess operators, ActionRegistry actions, GatewayMetrics metrics, Clock clock) {
    this.sluice = sluice;
    this.policy = sluice.policy();
    this.limits = policy.gateway();
    this.agentTokens = agentTokens;
    this.operators = operators;
    this.auditExport = new AuditExport(sluice);
    this.actions = actions;
    this.metrics = metrics;
    this.clock = clock;
  }

  public void ready(boolean on) {
    ready.set(on);
  }

  @Override
  public boolean handle(Request request, Response response, Callback callback) {
    try {
      route(request, response, callback);
    } catch (RuntimeException e) {
      LOG.warn("internal error on {} {}: {}", request.getMethod(), safePath(request), e.getClass().getSimpleName());
      Http.writeProblem(response, Problem.refused(500, "internal_error", "Internal error", "the gateway failed on this request; nothing more is known",
          "report it; if the request was a write, check the provider before repeating it"), callback);
    }
    return true;
  }

  private void route(Request request, Response response, Callback callback) {
    String method = request.getMethod();
    String rawPath = request.getHttpURI().getPath();
    if (method.equals("CONNECT")) {
      response.getHeaders().put("Connection", "close"); // a CONNECT connection is never reused for anything else
      refuse(response, callback, 405, "not_a_proxy", "CONNECT refused", "Sluice is not an open proxy: CONNECT is refused",
          "send METHOD /{provider}/{path} to Sluice with your agent token");
      return;
    }
    if (rawPath == null || !rawPath.startsWith("/") || absoluteForm(request)) {
      refuse(response, callback, 400, "not_a_proxy", "Absolute-form target refused",
          "Sluice is not an open proxy: only origin-form targets (/{provider}/{path}) are accepted",
          "send METHOD /{provider}/{path} to Sluice with your agent token");
      return;
    }
    int headerLines = 0;
    for (HttpField ignored : request.getHeaders()) {
      headerLines++;
    }
    if (headerLines > limits.maxRequestHeaders()) {
      refuse(response, callback, 431, "headers_too_large", "Too many header fields",
          "the request has " + headerLines + " header field lines; at most " + limits.maxRequestHeaders() + " are accepted", "send fewer header fields");
      return;
    }
    String first = firstSegment(rawPath);
    switch (first) {
      case "healthz" -> Http.write(response, 200, "text/plain", Http.utf8("ok\n"), callback);
      case "readyz" -> Http.write(response, ready.get() ? 200 : 503, "text/plain", Http.utf8(ready.get() ? "ready\n" : "not ready\n"), callback);
      case "metrics" -> Http.write(response, 200, "text/plain; version=0.0.4; charset=utf-8", Http.utf8(metrics.scrape()), callback);
      case "v1" -> admin(request, response, callback, rawPath);
      default -> agentCall(request, response, callback, rawPath, first);
    }
  }

  /** An absolute-form request line carries its own authority; an origin-form one takes it from Host. */
  private static boolean absoluteForm(Request request) {
    String host = request.getHeaders().get("Host");
    String uriAuthority = request.getHttpURI().getAuthority();
    return host == null || uriAuthority == null || !uriAuthority.equalsIgnoreCase(host.trim());
  }

  private static String firstSegment(String rawPath) {
    int end = rawPath.indexOf('/', 1);
    return end < 0 ? rawPath.substring(1) : rawPath.substring(1, end);
  }

  // ---------------------------------------------------------------- agent calls

  private void agentCall(Request request, Response response, Callback callback, String rawPath, String providerId) {
    Optional<String> agentId = Tokens.bearer(request.getHeaders().get("Authorization")).flatMap(agentTokens::owner);
    if (agentId.isEmpty()) {
      LOG.info("refused {} {}: no valid agent token", request.getMethod(), safePath(request));
      response.getHeaders().put("WWW-Authenticate", "Bearer realm=\"sluice\"");
      refuse(response, callback, 401, "unauthorized", "Agent token required",
          "send Authorization: Bearer <your agent token> (the token configured for your agent, not a provider credential)",
          "use the agent token Sluice printed or your operator gave you");
      return;
    }
    Agent agent = policy.agent(agentId.get()).orElseThrow();
    if (policy.provider(providerId).isEmpty() || !agent.mayUse(providerId)) {
      // One answer for "no such provider" and "not yours": an agent learns nothing of providers it may not use.
      refuse(response, callback, 403, "provider_not_allowed", "Provider not allowed",
          "agent '" + agent.id() + "' may call only " + agent.providers() + "; the first path segment names the provider",
          "call one of your providers: /{provider}/{path}");
      return;
    }
    String rest = rawPath.length() == 1 + providerId.length() ? "/" : rawPath.substring(1 + providerId.length());
    String query = request.getHttpURI().getQuery();
    String target = query == null ? rest : rest + "?" + query;
    Optional<PathSafety.Refusal> unsafe = PathSafety.check(target);
    if (unsafe.isPresent()) {
      refuse(response, callback, 400, "unsafe_path", "Unsafe path refused", "unsafe path (" + unsafe.get().code() + "): " + unsafe.get().message(),
          "send a plain path without dot-segments or encoded slashes");
      return;
    }
    long declared = request.getLength();
    if (declared > limits.maxRequestBodyBytes()) {
      refuse(response, callback, 413, "body_too_large", "Request body too large",
          "the body is " + declared + " bytes; at most " + limits.maxRequestBodyBytes() + " are accepted", "send a smaller body");
      return;
    }
    String finalTarget = target;
    Content.Source.asByteArrayAsync(request, limits.maxRequestBodyBytes()).whenComplete((body, failure) -> {
      if (failure != null) {
        refuse(response, callback, 413, "body_too_large", "Request body too large",
            "the body could not be read within the cap of " + limits.maxRequestBodyBytes() + " bytes", "send a smaller body");
        return;
      }
      try {
        submit(request, response, callback, agent, providerId, finalTarget, rest, body);
      } catch (RuntimeException e) {
        LOG.warn("internal error on {} {}: {}", request.getMethod(), safePath(request), e.getClass().getSimpleName());
        refuse(response, callback, 500, "internal_error", "Internal error", "the gateway failed on this request",
            "if it was a write, check the provider before repeating it");
      }
    });
  }

  private void submit(Request request, Response response, Callback callback, Agent agent, String providerId, String target, String path,
      byte[] body) {
    Call.Builder b = Call.builder(providerId, request.getMethod(), target).body(body);
    String task = request.getHeaders().get("Sluice-Task");
    b.task(task != null && !task.isBlank() ? task.trim() : "task-" + UUID.randomUUID());
    String priority = request.getHeaders().get("Sluice-Priority");
    if (priority != null) {
      Optional<Priority> p = parsePriority(priority);
      if (p.isEmpty()) {
        refuse(response, callback, 400, "bad_priority", "Bad Sluice-Priority", "Sluice-Priority must be interactive or background",
            "send Sluice-Priority: interactive or background, or leave it out");
        return;
      }
      b.priority(p.get());
    }
    String key = request.getHeaders().get("Idempotency-Key");
    if (key != null) {
      b.idempotencyKey(key);
    }
    b.headers(forwardedHeaders(request));
    Optional<String> goal = Optional.ofNullable(request.getHeaders().get("Sluice-Task-Goal")).map(String::trim).filter(s -> !s.isEmpty());
    goal.ifPresent(b::goal);
    Call call = b.build();
    dev.sluice.core.Submission submission = sluice.start(call);
    CompletableFuture<Outcome> outcome = submission.outcome();
    // Per-call approval: the action is held in the journal; its id names it (after a restart too).
    boolean awaitingApproval = submission.actionId().flatMap(sluice::action)
        .map(a -> a.state() == dev.sluice.core.journal.ActionState.AWAITING_APPROVAL).orElse(false);
    String id = awaitingApproval ? submission.actionId().get().toString() : ActionRegistry.newId();
    actions.add(new ActionRegistry.Entry(id, agent.id(), providerId, call.taskId(), goal, call.method(), path, clock.instant(), outcome));
    if (awaitingApproval) {
      accepted(response, callback, id, call.taskId(), providerId);
      return;
    }
    outcome.thenAccept(o -> {
      metrics.outcome(providerId, o);
      LOG.info("agent {} {} /{}{} -> {} after {} attempt(s), action {}", agent.id(), call.method(), providerId, path, o.outcome().code(),
          o.attempts(), id);
    });
    Prefer prefer = Prefer.parse(request.getHeaders().getValuesList("Prefer"));
    if (prefer.respondAsync() && !outcome.isDone()) {
      accepted(response, callback, id, call.taskId(), providerId);
      return;
    }
    Duration wait = prefer.waitFor().orElse(DEFAULT_WAIT);
    CompletableFuture<Object> timer = new CompletableFuture<>();
    CompletableFuture.delayedExecutor(wait.toMillis(), TimeUnit.MILLISECONDS).execute(() -> timer.complete(Boolean.FALSE));
    outcome.<Object>thenApply(o -> o).applyToEither(timer, x -> x).whenComplete((x, e) -> {
      if (x instanceof Outcome o) {
        answer(response, callback, id, o);
      } else {
        accepted(response, callback, id, call.taskId(), providerId);
      }
    });
  }

  private static Optional<Priority> parsePriority(String s) {
    return switch (s.trim().toLowerCase(Locale.ROOT)) {
      case "interactive" -> Optional.of(Priority.INTERACTIVE);
      case "background" -> Optional.of(Priority.BACKGROUND);
      default -> Optional.empty();
    };
  }

  /** The agent's fields minus its Authorization, hop-by-hop fields, Sluice's own and Prefer. */
  private static Headers forwardedHeaders(Request request) {
    Set<String> connectionNamed = new java.util.HashSet<>();
    for (String v : request.getHeaders().getValuesList("Connection")) {
      for (String n : v.split(",")) {
        connectionNamed.add(n.trim().toLowerCase(Locale.ROOT));
      }
    }
    Headers.Builder h = Headers.builder();
    for (HttpField f : request.getHeaders()) {
      String n = f.getName().toLowerCase(Locale.ROOT);
      if (n.equals("authorization") || n.equals("cookie") || n.equals("prefer") || n.equals("idempotency-key") || n.startsWith("sluice-")
          || Http.hopByHop(n) || connectionNamed.contains(n)) {
        continue;
      }
      h.add(f.getName(), f.getValue());
    }
    return h.build();
  }

  /** The final answer: the provider's response relayed, or a problem document. */
  private void answer(Response response, Callback callback, String actionId, Outcome o) {
    response.getHeaders().put("Sluice-Action-Id", actionId);
    response.getHeaders().put("Sluice-Attempts", String.valueOf(o.attempts()));
    response.getHeaders().put("Sluice-Outcome", o.outcome().code());
    if (StatusTable.relaysProviderResponse(o)) {
      AttemptResult.Response r = o.response().get();
      if (headBytes(r.headers()) > limits.maxHeaderBytes()) {
        metrics.refusal("response_headers_too_large");
        Http.writeProblem(response, Problem.refused(502, "response_headers_too_large", "Provider response headers too large",
            "the provider's response head is over " + limits.maxHeaderBytes() + " bytes; it is not relayed (the call itself was made: outcome "
                + o.outcome().code() + ")", "look the result up at the provider; do not repeat a write blindly"), callback);
        return;
      }
      boolean failed = o.outcome() != dev.sluice.core.engine.OutcomeCode.SUCCEEDED;
      if (failed) {
        response.getHeaders().put("x-should-retry", "false");
      }
      r.headers().asMap().forEach((name, values) -> {
        // Date: the gateway's server already sends one; two Date fields would be invalid. On a
        // relayed failure the provider's own retry hints would contradict x-should-retry: false and
        // invite an SDK in front of Sluice to multiply attempts Sluice has already decided on.
        boolean retryHint = failed && (name.equalsIgnoreCase("x-should-retry") || name.equalsIgnoreCase("retry-after")
            || name.equalsIgnoreCase("retry-after-ms"));
        if (!Http.hopByHop(name) && !name.equalsIgnoreCase("content-type") && !name.equalsIgnoreCase("date") && !retryHint) {
          values.forEach(v -> response.getHeaders().add(name, v));
        }
      });
      Http.write(response, r.status(), r.headers().first("Content-Type").orElse(null), r.bodyPrefix(), callback);
      return;
    }
    Http.writeProblem(response, Problem.of(o, actionId, clock.instant()), callback);
  }

  private static int headBytes(Headers h) {
    int n = 0;
    for (Map.Entry<String, List<String>> e : h.asMap().entrySet()) {
      for (String v : e.getValue()) {
        n += e.getKey().length() + v.length() + 4;
      }
    }
    return n;
  }

  private void accepted(Response response, Callback callback, String id, String taskId, String providerId) {
    Map<String, Object> m = actionState(actions.get(id).orElseThrow());
    response.getHeaders().put("Location", "/v1/actions/" + id);
    response.getHeaders().put("Sluice-Action-Id", id);
    response.getHeaders().put("Preference-Applied", "respond-async");
    Object due = m.get("due_at");
    if (due != null) {
      long s = Math.max(1, Duration.between(clock.instant(), Instant.parse((String) due)).toSeconds());
      response.getHeaders().put("Retry-After", String.valueOf(s));
    }
    Http.writeJson(response, 202, m, callback);
  }

  private boolean heldForApproval(ActionRegistry.Entry e) {
    if (e.id().startsWith("act_")) {
      return false; // the gateway's own ids: never held (held actions are named by their journal id)
    }
    try {
      return sluice.action(dev.sluice.core.journal.ActionId.of(e.id())).map(a -> a.state() == dev.sluice.core.journal.ActionState.AWAITING_APPROVAL)
          .orElse(false);
    } catch (IllegalArgumentException notAJournalId) {
      return false;
    }
  }

  /** What is known of an action: state, and the outcome context once done. */
  private Map<String, Object> actionState(ActionRegistry.Entry e) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("id", e.id());
    m.put("task", e.taskId());
    e.goal().ifPresent(g -> m.put("goal", g));
    m.put("agent", e.agent());
    m.put("provider", e.provider());
    m.put("method", e.method());
    m.put("path", e.path());
    m.put("accepted_at", Problem.rfc3339(e.acceptedAt()));
    if (e.outcome().isDone()) {
      Outcome o = e.outcome().join();
      m.put("state", "done");
      m.putAll(Problem.context(o));
      m.put("finished_at", Problem.rfc3339(o.finishedAt()));
    } else if (heldForApproval(e)) {
      m.put("state", "awaiting_approval");
      sluice.escalations().stream().filter(x -> x.open() && x.dossier().actionId().equals(e.id())).findFirst()
          .ifPresent(x -> m.put("escalation", x.id().toString()));
      m.put("due_at", null);
    } else {
      Optional<QueuedRequest> q = sluice.queue(e.provider()).stream().filter(r -> r.taskId().equals(e.taskId())).findFirst();
      m.put("state", q.isPresent() ? "waiting" : "in_flight");
      m.put("due_at", q.map(r -> Problem.rfc3339(r.dueAt())).orElse(null));
    }
    return m;
  }

  // ---------------------------------------------------------------- admin API

  private void admin(Request request, Response response, Callback callback, String rawPath) {
    Optional<String> token = Tokens.bearer(request.getHeaders().get("Authorization"));
    Optional<String> operatorId = operators.operator(token);
    boolean operator = operatorId.isPresent();
    Optional<String> agent = operator ? Optional.empty() : token.flatMap(agentTokens::owner);
    String[] seg = rawPath.substring(1).split("/", -1);
    String method = request.getMethod();
    // An agent may read its own actions (the Location of a 202 points there); everything else is the operator's.
    boolean actionRead = seg.length == 3 && seg[1].equals("actions") && method.equals("GET");
    if (!operator && !(actionRead && agent.isPresent())) {
      response.getHeaders().put("WWW-Authenticate", "Bearer realm=\"sluice-admin\"");
      refuse(response, callback, 401, "unauthorized", "Operator token required",
          "the admin API needs Authorization: Bearer <operator token> (policy key operator.token_env)", "use the operator token");
      return;
    }
    Optional<OperatorPermission> needed = AdminPermissions.needed(seg, method);
    if (operator && needed.isPresent() && !operators.may(operatorId.get(), needed.get())) {
      LOG.info("operator {} refused {} {}: no {} permission", operatorId.get(), method, safePath(request), needed.get().key());
      refuse(response, callback, 403, "forbidden", "Permission required",
          "operator '" + operatorId.get() + "' lacks the '" + needed.get().key() + "' permission for " + method + " /" + String.join("/", seg),
          "ask for the permission (operators[].permissions in sluice.yaml)");
      return;
    }
    if (seg.length == 2 && seg[1].equals("audit") && method.equals("GET")) {
      auditExport.handle(request, response, callback, operatorId.get(),
          (status, code, title, detail, next) -> refuse(response, callback, status, code, title, detail, next));
      return;
    }
    if (seg.length == 2 && seg[1].equals("scopes") && method.equals("GET")) {
      List<Map<String, Object>> out = new ArrayList<>();
      sluice.scopes().forEach(r -> out.add(ScopeJson.of(r)));
      Http.writeJson(response, 200, out, callback);
    } else if (actionRead) {
      Optional<ActionRegistry.Entry> e = actions.get(seg[2]).filter(x -> operator || x.agent().equals(agent.get()));
      if (e.isEmpty()) {
        refuse(response, callback, 404, "unknown_action", "Unknown action", "no action with this id is known to this gateway (or it is not yours)",
            "check the id from the Location header");
        return;
      }
      actionDocument(request, response, callback, e.get());
    } else if (seg.length == 3 && seg[1].equals("tasks") && method.equals("GET")) {
      List<Map<String, Object>> list = actions.ofTask(seg[2]).stream().map(this::actionState).toList();
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("task", seg[2]);
      m.put("actions", list);
      Http.writeJson(response, list.isEmpty() ? 404 : 200, m, callback);
    } else if (seg.length >= 2 && seg[1].equals("escalations")) {
      new EscalationEndpoints(sluice).handle(request, response, callback, seg);
    } else if (seg.length == 3 && seg[1].equals("tasks") && method.equals("DELETE")) {
      int n = sluice.cancel(seg[2]);
      LOG.info("operator cancelled task {} ({} pending call(s))", seg[2], n);
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("task", seg[2]);
      m.put("cancelled", n);
      Http.writeJson(response, 200, m, callback);
    } else {
      refuse(response, callback, 404, "unknown_endpoint", "Unknown admin endpoint",
          "known: GET /v1/scopes, GET /v1/actions/{id}, GET /v1/tasks/{id}, DELETE /v1/tasks/{id}, GET /v1/audit, GET /v1/escalations, "
              + "GET /v1/escalations/{id}, POST /v1/escalations/{id}/decision, POST /v1/escalations/{id}/body", "use one of the known endpoints");
    }
  }

  /** Done: the provider's response (relayed outcomes) or the problem; pending: the state, honouring Prefer: wait. */
  private void actionDocument(Request request, Response response, Callback callback, ActionRegistry.Entry e) {
    Prefer prefer = Prefer.parse(request.getHeaders().getValuesList("Prefer"));
    if (!e.outcome().isDone() && prefer.waitFor().isPresent()) {
      CompletableFuture<Object> timer = new CompletableFuture<>();
      CompletableFuture.delayedExecutor(prefer.waitFor().get().toMillis(), TimeUnit.MILLISECONDS).execute(() -> timer.complete(Boolean.FALSE));
      e.outcome().<Object>thenApply(o -> o).applyToEither(timer, x -> x).whenComplete((x, f) -> actionNow(response, callback, e));
      return;
    }
    actionNow(response, callback, e);
  }

  private void actionNow(Response response, Callback callback, ActionRegistry.Entry e) {
    if (e.outcome().isDone()) {
      answer(response, callback, e.id(), e.outcome().join());
    } else {
      response.getHeaders().put("Sluice-Action-Id", e.id());
      Http.writeJson(response, 200, actionState(e), callback);
    }
  }

  private void refuse(Response response, Callback callback, int status, String code, String title, String detail, String next) {
    metrics.refusal(code);
    Http.writeProblem(response, Problem.refused(status, code, title, detail, next), callback);
  }

  /** The path for a log line: never the query (it may carry secrets), cut short, control characters replaced. */
  static String safePath(Request request) {
    String p = request.getHttpURI().getPath();
    if (p == null) {
      return "?";
    }
    String s = p.length() > 200 ? p.substring(0, 200) + "..." : p;
    StringBuilder b = new StringBuilder(s.length());
    for (char c : s.toCharArray()) {
      b.append(c < 0x20 || c == 0x7f ? '?' : c);
    }
    return new String(b.toString().getBytes(StandardCharsets.UTF_8), StandardCharsets.UTF_8);
  }
}
