package dev.sluice.core.engine;

import dev.sluice.core.policy.RequestClass;
import dev.sluice.core.http.Headers;
import dev.sluice.core.journal.ActionId;
import dev.sluice.core.scope.ScopeId;
import java.util.Arrays;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * One logical action an agent wants done, already matched to its provider, scope and route by the
 * surface (gateway, MCP, library facade). The engine sends it as one or more attempts.
 *
 * @param taskId the agent's task run; cancellation and task budgets act on it
 * @param priority interactive or background
 * @param scope the shared scope whose queue it joins (must be registered with the engine)
 * @param requestClass the route's class and budget
 * @param method the HTTP method, upper case
 * @param routeTemplate the configured route path ({@code /v1/invoices/{id}}), for fingerprints
 * @param target the origin-form request target at the provider: path and query
 *     ({@code /v1/invoices/42?expand=lines}); the transport resolves it against the base URL
 * @param headers the agent's header fields (the credential is added by the transport, never here)
 * @param body the request body, possibly empty
 * @param immutable the route is marked {@code immutable: true}: identical reads may be coalesced
 * @param idempotencyKey the key sent with every attempt, when the provider honours one
 * @param lookupAvailable the route can be looked up after an uncertain send (reconciliation)
 * @param lookup how to look it up; absent with {@code lookupAvailable}, reconciliation stops at
 *     {@code reconciliation_required}
 * @param journalId the journal's id when the action is journaled (see {@link ActionLog})
 */
public record ActionRequest(
    String taskId,
    Priority priority,
    ScopeId scope,
    RequestClass requestClass,
    String method,
    String routeTemplate,
    String target,
    Headers headers,
    byte[] body,
    boolean immutable,
    Optional<String> idempotencyKey,
    boolean lookupAvailable,
    Optional<LookupPlan> lookup,
    Optional<ActionId> journalId) {

  private static final Set<String> SAFE = Set.of("GET", "HEAD", "OPTIONS", "TRACE");

  public ActionRequest {
    Objects.requireNonNull(taskId, "taskId");
    Objects.requireNonNull(priority, "priority");
    Objects.requireNonNull(scope, "scope");
    Objects.requireNonNull(requestClass, "requestClass");
    Objects.requireNonNull(method, "method");
    method = method.toUpperCase(Locale.ROOT);
    Objects.requireNonNull(routeTemplate, "routeTemplate");
    Objects.requireNonNull(target, "target");
    Objects.requireNonNull(headers, "headers");
    body = body == null ? new byte[0] : body.clone();
    Objects.requireNonNull(idempotencyKey, "idempotencyKey");
    Objects.requireNonNull(lookup, "lookup");
    Objects.requireNonNull(journalId, "journalId");
    if (!target.startsWith("/")) {
      throw new IllegalArgumentException("the request target must be origin-form (start with '/'), got '" + target + "'");
    }
  }

  /** An action with no look-up plan and not journaled. */
  public ActionRequest(String taskId, Priority priority, ScopeId scope, RequestClass requestClass, String method, String routeTemplate,
      String target, Headers headers, byte[] body, boolean immutable, Optional<String> idempotencyKey, boolean lookupAvailable) {
    this(taskId, priority, scope, requestClass, method, routeTemplate, target, headers, body, immutable, idempotencyKey, lookupAvailable,
        Optional.empty(), Optional.empty());
  }

  /** The same action with this look-up plan (which makes {@code lookupAvailable} true). */
  public ActionRequest withLookup(LookupPlan plan) {
    return new ActionRequest(taskId, priority, scope, requestClass, method, routeTemplate, target, headers, body, immutable, idempotencyKey, true,
        Optional.of(plan), journalId);
  }

  /** The same action, journaled under {@code id}. */
  public ActionRequest withJournalId(ActionId id) {
    return new ActionRequest(taskId, priority, scope, requestClass, method, routeTemplate, target, headers, body, immutable, idempotencyKey,
        lookupAvailable, lookup, Optional.of(id));
  }

  /** A read of {@code target} with no body, no key, not immutable: the common case in tests. */
  public static ActionRequest read(String taskId, Priority priority, ScopeId scope, String routeTemplate, String target) {
    return new ActionRequest(taskId, priority, scope, RequestClass.SEED_READ, "GET", routeTemplate, target, Headers.empty(), new byte[0], false,
        Optional.empty(), false);
  }

  /** The same action marked immutable (coalescible). */
  public ActionRequest asImmutable() {
    return new ActionRequest(taskId, priority, scope, requestClass, method, routeTemplate, target, headers, body, true, idempotencyKey, lookupAvailable,
        lookup, journalId);
  }

  /** The same action in another task. */
  public ActionRequest inTask(String otherTask) {
    return new ActionRequest(otherTask, priority, scope, requestClass, method, routeTemplate, target, headers, body, immutable, idempotencyKey,
        lookupAvailable, lookup, journalId);
  }

  /** Whether the method may change state at the provider (anything but GET, HEAD, OPTIONS, TRACE). */
  public boolean write() {
    return !SAFE.contains(method);
  }

  @Override
  public byte[] body() {
    return body.clone();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof ActionRequest a && a.taskId.equals(taskId) && a.priority == priority && a.scope.equals(scope)
        && a.requestClass.equals(requestClass) && a.method.equals(method) && a.routeTemplate.equals(routeTemplate) && a.target.equals(target)
        && a.headers.equals(headers) && Arrays.equals(a.body, body) && a.immutable == immutable && a.idempotencyKey.equals(idempotencyKey)
        && a.lookupAvailable == lookupAvailable && a.lookup.equals(lookup) && a.journalId.equals(journalId);
  }

  @Override
  public int hashCode() {
    return Objects.hash(taskId, scope, method, target, Arrays.hashCode(body));
  }

  @Override
  public String toString() {
    return "ActionRequest[" + taskId + " " + method + " " + target + " on " + scope + ", " + priority.code() + ", class " + requestClass.name()
        + ", " + body.length + " body bytes]";
  }
}
