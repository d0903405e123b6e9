package dev.sluice.gateway.internal;

import dev.sluice.core.Call;
import dev.sluice.core.Sluice;
import dev.sluice.core.Submission;
import dev.sluice.core.classify.AttemptResult;
import dev.sluice.core.engine.Outcome;
import dev.sluice.core.engine.OutcomeCode;
import dev.sluice.core.engine.Priority;
import dev.sluice.core.http.Headers;
import dev.sluice.core.journal.ActionId;
import dev.sluice.core.journal.ActionRecord;
import dev.sluice.core.policy.Agent;
import dev.sluice.core.policy.GatewaySettings;
import dev.sluice.core.policy.OperatorPermission;
import dev.sluice.core.policy.PathSafety;
import dev.sluice.core.policy.Policy;
import dev.sluice.gateway.ScopeJson;
import dev.sluice.gateway.StatusTable;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
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
 * turned into a {@link Call} and started; the answer is written when the outcome's future
 * completes, so a waiting request holds no thread. {@code /v1/...} is the admin API,
 * {@code /healthz}, {@code /readyz} and {@code /metrics} the operational endpoints.
 *
 * <p>Life: the handler serves before Sluice is attached ({@link #attach}: after the journal's open
 * actions were resumed) — {@code /healthz} answers, {@code /readyz} and agent calls answer 503 —
 * and after {@link #stopping()}, when agent calls are refused and {@link #releaseWaiting()} answers
 * the calls still waiting at shutdown.
 *
 * <p>Everything refused here is refused before {@link Sluice#start}: nothing reaches a provider.
 * Log lines name the agent, method, provider and path (never the query, a header value or a body).
 *
 * <p>Not {@code NonBlocking}: starting a write commits its journal row (an fsync) on the calling
 * thread, which must never be one of Jetty's selector threads; Jetty runs this handler on the
 * server's (virtual-thread) executor instead. Waiting for the outcome still holds no thread.
 */
public final class GatewayHandler extends Handler.Abstract {
  private static final Logger LOG = LoggerFactory.getLogger("dev.sluice.gateway");
  /** First path segments the gateway keeps for itself; no provider may be named so. */
  public static final Set<String> RESERVED = Set.of("v1", "healthz", "readyz", "metrics");

  private enum Phase { STARTING, READY, STOPPING }

  private final Policy policy;
  private final GatewaySettings limits;
  private final Tokens agentTokens;
  private final OperatorAccess operators;
  private volatile AuditExport auditExport;
  private final ActionRegistry actions;
  private final GatewayMetrics metrics;
  private final Clock clock;
  private volatile Sluice sluice;
  private volatile Phase phase = Phase.STARTING;
  /** Agent calls whose connection waits for the outcome; answered at shutdown if still there. */
  private final Set<Exchange> waiting = ConcurrentHashMap.newKeySet();

  /** Every owner of {@code operatorTokens} has every permission (the single-operator setup). */
  public GatewayHandler(Policy policy, Tokens agentTokens, Tokens operatorTokens, ActionRegistry actions, GatewayMetrics metrics, Clock clock) {
    this(policy, agentTokens, OperatorAccess.allPermissions(operatorTokens), actions, metrics, clock);
  }

  public GatewayHandler(Policy policy, Tokens agentTokens, OperatorAccess operators, ActionRegistry actions, GatewayMetrics metrics, Clock clock) {
    this.policy = policy;
    this.limits = policy.gateway();
    this.agentTokens = agentTokens;
    this.operators = operators;
    this.actions = actions;
    this.metrics = metrics;
    this.clock = clock;
  }

  /**
   * Sluice is running (its journal's open actions resumed): registers the resumed actions, so
   * their ids answer with the live outcome, and turns ready.
   */
  public void attach(Sluice s) {
    this.auditExport = new AuditExport(s);
    this.sluice = s;
    s.recovered().forEach((id, outcome) -> s.action(id).ifPresent(r -> {
      TaskNames.Owned owner = TaskNames.split(r.taskId()).orElse(new TaskNames.Owned("?", r.taskId()));
      ActionRegistry.Entry e = actions.add(new ActionRegistry.Entry(id.value(), Optional.of(id), owner.agent(), r.scope().provider(), owner.task(),
          Optional.empty(), r.method(), pathOf(r.target()), r.createdAt(), outcome));
      outcome.thenAccept(o -> metrics.outcome(e.provider(), o, s, e.journalId(), r.write()));
    }));
    phase = Phase.READY;
  }

  /** Shutdown begins: readiness goes, new agent calls are refused (503, nothing sent). */
  public void stopping() {
    phase = Phase.STOPPING;
  }

  /** Whether the gateway is attached and not stopping. */
  public boolean isReady() {
    return phase == Phase.READY;
  }

  /**
   * Shutdown, after in-flight attempts finished: answers every agent call still waiting. A
   * journaled action that is still open stays in the journal for the next start; the agent is told
   * so, with the {@code Location} to poll, and never to send it again.
   */
  public void releaseWaiting() {
    for (Exchange x : List.copyOf(waiting)) {
      ActionRegistry.Entry e = x.entry;
      if (e.outcome().isDone()) {
        continue; // answered by its own completion
      }
      Optional<ActionRecord> r = e.journalId().flatMap(id -> sluice.action(id));
      if (r.isPresent() && !r.get().state().open()) {
        // Finished and committed during the drain; its future completes in a moment: answer it normally.
        try {
          e.outcome().get(2, TimeUnit.SECONDS);
          continue;
        } catch (Exception ignored) {
          // fall through: say what is known
        }
      }
      if (!x.claim()) {
        continue;
      }
      waiting.remove(x);
      Problem p;
      if (r.isPresent()) {
        x.response.getHeaders().put("Location", "/v1/actions/" + e.id());
        p = Problem.stopping(e, r.get().state().code(), true);
      } else {
        p = Problem.stopping(e, "not_sent", false);
      }
      metrics.refusal("gateway_stopping");
      x.response.getHeaders().put("Sluice-Action-Id", e.id());
      x.response.getHeaders().put("Connection", "close");
      Http.writeProblem(x.response, p, x.callback);
    }
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
    if (rawPath == null || !rawPath.startsWith("/") || TargetFormConnectionFactory.absoluteForm(request) || authorityMismatch(request)) {
      refuse(response, callback, 400, "not_a_proxy", "Absolute-form target refused",
          "Sluice is not an open proxy: only origin-form targets (/{provider}/{path}) are accepted, whatever host an absolute-form target names",
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
      case "readyz" -> {
        Phase p = phase;
        String text = switch (p) {
          case READY -> "ready\n";
          case STARTING -> "not ready: resuming the journal's open actions\n";
          case STOPPING -> "not ready: stopping\n";
        };
        Http.write(response, p == Phase.READY ? 200 : 503, "text/plain", Http.utf8(text), callback);
      }
      case "metrics" -> Http.write(response, 200, "text/plain; version=0.0.4; charset=utf-8", Http.utf8(metrics.scrape()), callback);
      case "v1" -> admin(request, response, callback, rawPath);
      default -> agentCall(request, response, callback, rawPath, first);
    }
  }

  /** Belt and braces: a target whose authority differs from Host (Jetty's own view of it). */
  private static boolean authorityMismatch(Request request) {
    String host = request.getHeaders().get("Host");
    String uriAuthority = request.getHttpURI().getAuthority();
    return host == null || uriAuthority == null || !uriAuthority.equalsIgnoreCase(host.trim());
  }

  private static String firstSegment(String rawPath) {
    int end = rawPath.indexOf('/', 1);
    return end < 0 ? rawPath.substring(1) : rawPath.substring(1, end);
  }

  private static String pathOf(String target) {
    int q = target.indexOf('?');
    return q < 0 ? target : target.substring(0, q);
  }

  // ---------------------------------------------------------------- agent calls

  private void agentCall(Request request, Response response, Callback callback, String rawPath, String providerId) {
    Optional<String> token = Tokens.bearer(request.getHeaders().get("Authorization"));
    Optional<String> agentId = token.flatMap(agentTokens::owner);
    if (agentId.isEmpty()) {
      unauthorized(request, response, callback, token.isPresent() ? "unknown_token" : "missing_token", "agent", providerId);
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
    if (phase != Phase.READY) {
      notServing(response, callback);
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
        if (phase == Phase.STOPPING) {
          notServing(response, callback); // Sluice closed between the check and the start: nothing was queued
          return;
        }
        LOG.warn("internal error on {} {}: {}", request.getMethod(), safePath(request), e.getClass().getSimpleName());
        refuse(response, callback, 500, "internal_error", "Internal error", "the gateway failed on this request",
            "if it was a write, check the provider before repeating it");
      }
    });
  }

  /** Starting (the journal is being resumed) or stopping: nothing is queued, nothing sent; safe to repeat later. */
  private void notServing(Response response, Callback callback) {
    boolean starting = phase == Phase.STARTING;
    metrics.refusal(starting ? "not_ready" : "gateway_stopping");
    Problem p = Problem.refused(503, starting ? "not_ready" : "gateway_stopping", starting ? "Gateway starting" : "Gateway stopping",
        starting ? "the gateway is resuming the journal's open actions and does not take calls yet; nothing was queued or sent"
            : "the gateway is stopping and takes no new calls; nothing was queued or sent",
        "repeat the call once /readyz answers 200 (this one was not sent)");
    if (!starting) {
      response.getHeaders().put("Connection", "close");
    }
    Http.writeProblem(response, p.withRetryAfter(starting ? 1 : 5), callback);
  }

  /** A missing or unknown token: 401, logged and audited without the token's value. */
  private void unauthorized(Request request, Response response, Callback callback, String reason, String realm, String firstSegment) {
    LOG.info("refused {} {}: {} ({} endpoint)", request.getMethod(), safePath(request), reason, realm);
    Sluice s = sluice;
    if (s != null) {
      Map<String, Object> f = new LinkedHashMap<>();
      f.put("endpoint", realm);
      f.put("reason", reason);
      f.put("method", request.getMethod());
      // Only a configured provider's id or a gateway endpoint: never free text an attacker typed.
      f.put("target", policy.provider(firstSegment).isPresent() || RESERVED.contains(firstSegment) ? firstSegment : "other");
      f.put("remote", Request.getRemoteAddr(request));
      s.auditEvent("gateway_auth_refused", f);
    }
    response.getHeaders().put("WWW-Authenticate", realm.equals("agent") ? "Bearer realm=\"sluice\"" : "Bearer realm=\"sluice-admin\"");
    if (realm.equals("agent")) {
      refuse(response, callback, 401, "unauthorized", "Agent token required",
          "send Authorization: Bearer <your agent token> (the token configured for your agent, not a provider credential)",
          "use the agent token Sluice printed or your operator gave you");
    } else {
      refuse(response, callback, 401, "unauthorized", "Operator token required",
          "the admin API needs Authorization: Bearer <operator token> (policy key operator.token_env); an agent may read only its own actions and tasks",
          "use the operator token, or your agent token for your own actions and tasks");
    }
  }

  private void submit(Request request, Response response, Callback callback, Agent agent, String providerId, String target, String path,
      byte[] body) {
    Call.Builder b = Call.builder(providerId, request.getMethod(), target).body(body);
    String taskHeader = request.getHeaders().get("Sluice-Task");
    String task = taskHeader != null && !taskHeader.isBlank() ? taskHeader.trim() : "task-" + UUID.randomUUID();
    b.task(TaskNames.internal(agent.id(), task));
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
    Sluice s = sluice;
    Submission sub = s.start(call);
    String id = sub.actionId().map(ActionId::value).orElseGet(ActionRegistry::newMemoryId);
    CompletableFuture<Outcome> outcome = sub.outcome();
    ActionRegistry.Entry entry = actions.add(new ActionRegistry.Entry(id, sub.actionId(), agent.id(), providerId, task, goal, call.method(), path,
        clock.instant(), outcome));
    boolean write = !Set.of("GET", "HEAD", "OPTIONS", "TRACE").contains(call.method());
    // Per-call approval: the action is held in the journal until an operator decides; its journal
    // id names it (after a restart too), so the agent gets 202 and the Location at once.
    boolean awaitingApproval = sub.actionId().flatMap(s::action)
        .map(a -> a.state() == dev.sluice.core.journal.ActionState.AWAITING_APPROVAL).orElse(false);
    // Counted before the agent is answered (the answer below hangs on this stage), so a scrape
    // after the answer always includes the outcome. Dependents of one future run in no set order.
    CompletableFuture<Outcome> counted = outcome.thenApply(o -> {
      try {
        metrics.outcome(providerId, o, s, sub.actionId(), write);
      } catch (RuntimeException e) {
        LOG.warn("could not count the outcome of action {}: {}", id, e.toString()); // the agent's answer must not depend on it
      }
      LOG.info("agent {} {} /{}{} -> {} after {} attempt(s), action {}", agent.id(), call.method(), providerId, path, o.outcome().code(),
          o.attempts(), id);
      return o;
    });
    Exchange x = new Exchange(response, callback, entry);
    if (awaitingApproval) {
      if (x.claim()) {
        accepted(x);
      }
      return;
    }
    Prefer prefer = Prefer.parse(request.getHeaders().getValuesList("Prefer"));
    if (prefer.respondAsync() && !outcome.isDone()) {
      if (x.claim()) {
        accepted(x);
      }
      return;
    }
    // The connection stays open until the outcome (bounded by the class's max_wait and the task's
    // deadline), or until Prefer: wait=N runs out: the connector's idle timeout must not cut it.
    request.addIdleTimeoutListener(timeout -> false);
    waiting.add(x);
    if (prefer.waitFor().isPresent()) {
      CompletableFuture.delayedExecutor(prefer.waitFor().get().toMillis(), TimeUnit.MILLISECONDS).execute(() -> {
        if (x.claim()) {
          waiting.remove(x);
          accepted(x);
        }
      });
    }
    counted.whenComplete((o, e) -> {
      if (x.claim()) {
        waiting.remove(x);
        if (o != null) {
          // Once the answer is written out, the agent has the response: only the outcome's context is kept.
          answer(x.response, deliveredThen(x.callback, entry.id()), entry, o);
        } else {
          refuse(x.response, x.callback, 500, "internal_error", "Internal error", "the action failed inside Sluice",
              "look the action up (GET /v1/actions/" + id + ") before repeating a write");
        }
      }
    });
  }

  /** One agent call's connection: answered exactly once, by its outcome, its wait timer or the shutdown. */
  private static final class Exchange {
    final Response response;
    final Callback callback;
    final ActionRegistry.Entry entry;
    private final AtomicBoolean answered = new AtomicBoolean();

    Exchange(Response response, Callback callback, ActionRegistry.Entry entry) {
      this.response = response;
      this.callback = callback;
      this.entry = entry;
    }

    boolean claim() {
      return answered.compareAndSet(false, true);
    }
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
  private void answer(Response response, Callback callback, ActionRegistry.Entry e, Outcome o) {
    response.getHeaders().put("Sluice-Action-Id", e.id());
    response.getHeaders().put("Sluice-Attempts", String.valueOf(o.attempts()));
    response.getHeaders().put("Sluice-Outcome", o.outcome().code());
    boolean write = !Set.of("GET", "HEAD", "OPTIONS", "TRACE").contains(e.method());
    if (StatusTable.relaysProviderResponse(o)) {
      AttemptResult.Response r = o.response().get();
      if (r.bodyTooLarge()) {
        metrics.refusal("response_too_large");
        Http.writeProblem(response, Problem.responseTooLarge(o, e.id(), TaskNames.split(o.taskId()).map(TaskNames.Owned::task).orElse(o.taskId()),
            write, limits.maxResponseBodyBytes()), callback);
        return;
      }
      if (headBytes(r.headers()) > limits.maxHeaderBytes()) {
        metrics.refusal("response_headers_too_large");
        Http.writeProblem(response, Problem.refused(502, "response_headers_too_large", "Provider response headers too large",
            "the provider's response head is over " + limits.maxHeaderBytes() + " bytes; it is not relayed (the call itself was made: outcome "
                + o.outcome().code() + ")", "look the result up at the provider; do not repeat a write blindly"), callback);
        return;
      }
      boolean failed = o.outcome() != OutcomeCode.SUCCEEDED;
      if (failed) {
        response.getHeaders().put("x-should-retry", "false");
      }
      r.headers().asMap().forEach((name, values) -> {
        // Date: the gateway's server already sends one; two Date fields would be invalid. A
        // relayed failure is a client error or conflict, which the engine judged a repeat cannot
        // fix: the provider's retry hints would contradict x-should-retry: false and invite an SDK
        // in front of Sluice to multiply attempts. (Where waiting is the next safe action — a
        // rate limit or quota — the answer is a problem document whose Retry-After comes from
        // the scope's hold, which the provider's own Retry-After set.)
        boolean retryHint = failed && (name.equalsIgnoreCase("x-should-retry") || name.equalsIgnoreCase("retry-after")
            || name.equalsIgnoreCase("retry-after-ms"));
        if (!Http.hopByHop(name) && !name.equalsIgnoreCase("content-type") && !name.equalsIgnoreCase("date") && !retryHint) {
          values.forEach(v -> response.getHeaders().add(name, v));
        }
      });
      Http.write(response, r.status(), r.headers().first("Content-Type").orElse(null), r.bodyPrefix(), callback);
      return;
    }
    Http.writeProblem(response, Problem.of(o, e.id(), e.task(), clock.instant()), callback);
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

  private void accepted(Exchange x) {
    Map<String, Object> m = ActionDocuments.live(sluice, x.entry);
    Response response = x.response;
    response.getHeaders().put("Location", "/v1/actions/" + x.entry.id());
    response.getHeaders().put("Sluice-Action-Id", x.entry.id());
    response.getHeaders().put("Preference-Applied", "respond-async");
    Object due = m.get("due_at");
    if (due != null) {
      long s = Math.max(1, Duration.between(clock.instant(), java.time.Instant.parse((String) due)).toSeconds());
      response.getHeaders().put("Retry-After", String.valueOf(s));
    }
    Http.writeJson(response, 202, m, x.callback);
  }

  // ---------------------------------------------------------------- admin API

  /**
   * A task name from a path segment, percent-decoded: the agent sent {@code Sluice-Task: nightly
   * sync}, the operator's URL says {@code nightly%20sync} (review: the encoded form was cancelled,
   * a task nobody had, and the real one went on).
   */
  private static String taskName(String segment) {
    return org.eclipse.jetty.util.URIUtil.decodePath(segment);
  }

  private void admin(Request request, Response response, Callback callback, String rawPath) {
    Optional<String> token = Tokens.bearer(request.getHeaders().get("Authorization"));
    Optional<String> operatorId = operators.operator(token);
    boolean operator = operatorId.isPresent();
    Optional<String> agent = operator ? Optional.empty() : token.flatMap(agentTokens::owner);
    String[] seg = rawPath.substring(1).split("/", -1);
    String method = request.getMethod();
    // An agent may read its own actions (the Location of a 202 points there) and read or cancel its
    // own tasks; everything else is the operator's.
    boolean actionRead = seg.length == 3 && seg[1].equals("actions") && method.equals("GET");
    boolean taskCall = seg.length == 3 && seg[1].equals("tasks") && (method.equals("GET") || method.equals("DELETE"));
    if (!operator && !((actionRead || taskCall) && agent.isPresent())) {
      unauthorized(request, response, callback, token.isEmpty() ? "missing_token" : agent.isPresent() ? "agent_token_not_allowed" : "unknown_token",
          "admin", "v1");
      return;
    }
    Sluice s = sluice;
    if (s == null) {
      notServing(response, callback);
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
      s.scopes().forEach(r -> out.add(ScopeJson.of(r)));
      Http.writeJson(response, 200, out, callback);
    } else if (actionRead) {
      action(request, response, callback, s, seg[2], agent);
    } else if (taskCall && method.equals("GET")) {
      // The operator may name one agent's task (?agent=); without it, every agent's task of that name.
      Optional<String> who = agent.isPresent() ? agent : queryParameter(request, "agent");
      String taskName = taskName(seg[2]);
      List<Map<String, Object>> list = actions.ofTask(who, taskName).stream().map(e -> ActionDocuments.live(s, e)).toList();
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("task", taskName);
      who.ifPresent(a -> m.put("agent", a));
      m.put("actions", list);
      Http.writeJson(response, list.isEmpty() ? 404 : 200, m, callback);
    } else if (seg.length >= 2 && seg[1].equals("escalations")) {
      new EscalationEndpoints(s, operatorId.orElse("?")).handle(request, response, callback, seg);
    } else if (taskCall) {
      cancel(request, response, callback, s, taskName(seg[2]), agent);
    } else {
      refuse(response, callback, 404, "unknown_endpoint", "Unknown admin endpoint",
          "known: GET /v1/scopes, GET /v1/actions/{id}, GET /v1/tasks/{id}, DELETE /v1/tasks/{id}, GET /v1/audit, GET /v1/escalations, "
              + "GET /v1/escalations/{id}, POST /v1/escalations/{id}/decision, POST /v1/escalations/{id}/body", "use one of the known endpoints");
    }
  }

  /** {@code DELETE /v1/tasks/{task}}: an agent cancels its own task; the operator one agent's (?agent=) or every agent's that has it. */
  private void cancel(Request request, Response response, Callback callback, Sluice s, String task, Optional<String> agent) {
    List<String> owners;
    if (agent.isPresent()) {
      owners = List.of(agent.get());
    } else {
      Optional<String> named = queryParameter(request, "agent");
      if (named.isPresent() && policy.agent(named.get()).isEmpty()) {
        refuse(response, callback, 404, "unknown_agent", "Unknown agent", "no agent '" + printable(named.get()) + "' in the policy",
            "name an agent of the policy, or leave ?agent= out");
        return;
      }
      owners = named.map(List::of).orElseGet(() -> actions.ofTask(Optional.empty(), task).stream().map(ActionRegistry.Entry::agent).distinct().toList());
    }
    int n = 0;
    for (String owner : owners) {
      n += s.cancel(TaskNames.internal(owner, task));
    }
    LOG.info("{} cancelled task {} of {} ({} pending call(s))", agent.map(a -> "agent " + a).orElse("operator"), task, owners, n);
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("task", task);
    m.put("agents", owners);
    m.put("cancelled", n);
    if (owners.isEmpty()) {
      m.put("note", "no agent has actions of this task in the gateway's view; to cancel a task before its first call, name the agent: ?agent=");
    }
    Http.writeJson(response, 200, m, callback);
  }

  /** {@code GET /v1/actions/{id}}: this process's view when it has one, else the journal's record. */
  private void action(Request request, Response response, Callback callback, Sluice s, String id, Optional<String> agent) {
    Optional<ActionRegistry.Entry> known = actions.get(id);
    if (known.isPresent()) {
      if (agent.isPresent() && !known.get().agent().equals(agent.get())) {
        unknownAction(response, callback);
        return;
      }
      liveDocument(request, response, callback, known.get());
      return;
    }
    Optional<ActionId> jid = parseActionId(id);
    Optional<ActionRecord> record = jid.flatMap(s::action);
    Optional<TaskNames.Owned> owner = record.flatMap(r -> TaskNames.split(r.taskId()));
    if (record.isEmpty() || (agent.isPresent() && !owner.map(o -> o.agent().equals(agent.get())).orElse(false))) {
      unknownAction(response, callback);
      return;
    }
    Optional<CompletableFuture<Outcome>> live = s.pending(jid.get());
    if (live.isPresent()) {
      ActionRecord r = record.get();
      ActionRegistry.Entry e = actions.add(new ActionRegistry.Entry(id, jid, owner.map(TaskNames.Owned::agent).orElse("?"), r.scope().provider(),
          owner.map(TaskNames.Owned::task).orElse(r.taskId()), Optional.empty(), r.method(), pathOf(r.target()), r.createdAt(), live.get()));
      liveDocument(request, response, callback, e);
      return;
    }
    response.getHeaders().put("Sluice-Action-Id", id);
    Map<String, Object> doc = ActionDocuments.journaled(record.get(), s.attempts(jid.get()).size(), owner);
    if (record.get().state() == dev.sluice.core.journal.ActionState.AWAITING_APPROVAL) {
      ActionDocuments.openEscalation(s, jid.get()).ifPresent(x -> doc.put("escalation", x));
    }
    Http.writeJson(response, 200, doc, callback);
  }

  private void unknownAction(Response response, Callback callback) {
    refuse(response, callback, 404, "unknown_action", "Unknown action",
        "no action with this id is known to this gateway or its journal (or it is not yours)", "check the id from the Location header");
  }

  private static Optional<ActionId> parseActionId(String id) {
    try {
      return Optional.of(ActionId.of(id));
    } catch (IllegalArgumentException e) {
      return Optional.empty();
    }
  }

  private static Optional<String> queryParameter(Request request, String name) {
    String q = request.getHttpURI().getQuery();
    if (q == null) {
      return Optional.empty();
    }
    for (String pair : q.split("&")) {
      int eq = pair.indexOf('=');
      if (eq > 0 && pair.substring(0, eq).equals(name)) {
        return Optional.of(java.net.URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8)).filter(v -> !v.isBlank());
      }
    }
    return Optional.empty();
  }

  private static String printable(String s) {
    String cut = s.length() > 80 ? s.substring(0, 80) + "..." : s;
    return cut.replaceAll("\\p{Cntrl}", "?");
  }

  /** Done: the provider's response (relayed outcomes) or the problem; pending: the state, honouring Prefer: wait. */
  private void liveDocument(Request request, Response response, Callback callback, ActionRegistry.Entry e) {
    Prefer prefer = Prefer.parse(request.getHeaders().getValuesList("Prefer"));
    if (!e.outcome().isDone() && prefer.waitFor().isPresent()) {
      request.addIdleTimeoutListener(timeout -> false);
      CompletableFuture<Object> timer = new CompletableFuture<>();
      CompletableFuture.delayedExecutor(prefer.waitFor().get().toMillis(), TimeUnit.MILLISECONDS).execute(() -> timer.complete(Boolean.FALSE));
      e.outcome().<Object>thenApply(o -> o).applyToEither(timer, x -> x).whenComplete((x, f) -> liveNow(response, callback, e));
      return;
    }
    liveNow(response, callback, e);
  }

  private void liveNow(Response response, Callback callback, ActionRegistry.Entry e) {
    if (e.outcome().isDone() && !e.outcome().isCompletedExceptionally() && e.responseKept()) {
      answer(response, deliveredThen(callback, e.id()), e, e.outcome().join()); // a 202's result, fetched: it has reached the agent
    } else {
      response.getHeaders().put("Sluice-Action-Id", e.id());
      Http.writeJson(response, 200, ActionDocuments.live(sluice, e), callback);
    }
  }

  /** {@code callback}, and once the answer was written out in full, the action's response is not kept any longer. */
  private Callback deliveredThen(Callback callback, String id) {
    return new Callback.Nested(callback) {
      @Override
      public void succeeded() {
        try {
          actions.delivered(id);
        } finally {
          super.succeeded();
        }
      }
    };
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
