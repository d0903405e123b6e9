package dev.sluice.core.journal;

import dev.sluice.core.engine.ActionRequest;
import dev.sluice.core.engine.Priority;
import dev.sluice.core.http.Headers;
import dev.sluice.core.policy.RequestClass;
import dev.sluice.core.scope.ScopeId;
import dev.sluice.core.journal.internal.Methods;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * A logical action about to be journaled by {@link Journal#recordAction}: everything needed to send
 * it again after a restart, exactly as the first attempt will send it. The journal assigns the
 * {@link ActionId}.
 *
 * <p>{@code payload} must be the exact bytes of every attempt: when the route names an {@code
 * external_reference} field, the reference is already filled in, so a resend after a restart
 * carries the same reference. {@code headers} are the header fields forwarded to the provider
 * (content type and the like); the caller never passes a credential or the agent's own token
 * ({@code Authorization}, {@code Proxy-Authorization} and {@code Cookie} are refused; a provider's
 * custom credential header is the caller's to strip), and {@code target} never carries
 * credentials (it is origin-form: path and query).
 *
 * @param taskId the agent's task run
 * @param priority interactive or background
 * @param scope the provider and shared scope
 * @param routeTemplate the configured route path, e.g. {@code /v1/transfers}
 * @param method the HTTP method, upper case
 * @param target the origin-form target (path and query)
 * @param requestClass the class and its budget, kept so a restart resumes with the same budget
 * @param headers the header fields to send with every attempt
 * @param payload the body bytes (possibly empty)
 * @param idempotencyKey the key sent unchanged on every attempt, when the provider honours one
 * @param externalReference the client reference written into the body, when the route has one
 * @param state {@link ActionState#QUEUED} (default), {@link ActionState#DELAYED}, or {@link
 *     ActionState#AWAITING_APPROVAL} (per-call approval: held until an operator decides)
 * @param createdAt when the agent asked
 * @param dueAt the earliest time the first attempt may leave; default {@code createdAt}
 * @param deadline the task's deadline, when it has one
 */
public record NewAction(
    String taskId,
    Priority priority,
    ScopeId scope,
    String routeTemplate,
    String method,
    String target,
    RequestClass requestClass,
    Headers headers,
    byte[] payload,
    Optional<String> idempotencyKey,
    Optional<String> externalReference,
    ActionState state,
    Instant createdAt,
    Instant dueAt,
    Optional<Instant> deadline) {

  /** Header fields that carry credentials in every HTTP API; a journaled action may not hold them. */
  private static final List<String> CREDENTIAL_HEADERS = List.of("Authorization", "Proxy-Authorization", "Cookie");

  public NewAction {
    Objects.requireNonNull(taskId, "taskId");
    Objects.requireNonNull(priority, "priority");
    Objects.requireNonNull(scope, "scope");
    Objects.requireNonNull(routeTemplate, "routeTemplate");
    Objects.requireNonNull(method, "method");
    Objects.requireNonNull(target, "target");
    Objects.requireNonNull(requestClass, "requestClass");
    Objects.requireNonNull(headers, "headers");
    payload = payload == null ? new byte[0] : payload.clone();
    Objects.requireNonNull(idempotencyKey, "idempotencyKey");
    Objects.requireNonNull(externalReference, "externalReference");
    Objects.requireNonNull(state, "state");
    Objects.requireNonNull(createdAt, "createdAt");
    Objects.requireNonNull(dueAt, "dueAt");
    Objects.requireNonNull(deadline, "deadline");
    if (taskId.isBlank()) {
      throw new IllegalArgumentException("an action needs a task id");
    }
    if (method.isBlank() || !method.equals(method.toUpperCase(Locale.ROOT))) {
      throw new IllegalArgumentException("the method must be an upper-case HTTP method, got '" + method + "'");
    }
    if (!target.startsWith("/") || target.startsWith("//")) {
      throw new IllegalArgumentException("the target must be origin-form (a path starting with a single '/', then an optional query)");
    }
    if (state != ActionState.QUEUED && state != ActionState.DELAYED && state != ActionState.AWAITING_APPROVAL) {
      throw new IllegalArgumentException("a new action starts queued, delayed or awaiting_approval, not " + state.code());
    }
    if (dueAt.isBefore(createdAt)) {
      throw new IllegalArgumentException("an action cannot be due (" + dueAt + ") before it was created (" + createdAt + ")");
    }
    for (String name : CREDENTIAL_HEADERS) {
      if (headers.contains(name)) {
        // Refused, not dropped: a resend after a restart must carry exactly what the first send did.
        throw new IllegalArgumentException("the journal keeps no credential: remove the " + name + " header before recording (the"
            + " transport injects the provider's credential on every attempt)");
      }
    }
    idempotencyKey.ifPresent(k -> requireText(k, "idempotency key"));
    externalReference.ifPresent(r -> requireText(r, "external reference"));
  }

  /**
   * A builder filled from the engine's request: task, priority, scope, route, method, target,
   * class, headers, body and key. Due at {@code createdAt}, queued, no external reference, no
   * deadline.
   */
  public static Builder from(ActionRequest request, Instant createdAt) {
    return new Builder(request.taskId(), request.priority(), request.scope(), request.routeTemplate(), request.method(), request.target(),
        request.requestClass(), createdAt)
        .headers(request.headers())
        .payload(request.body())
        .idempotencyKey(request.idempotencyKey().orElse(null));
  }

  /** A builder with no headers, no body, no key or reference, queued, due at {@code createdAt}. */
  public static Builder builder(String taskId, ScopeId scope, String method, String routeTemplate, String target, RequestClass requestClass,
      Instant createdAt) {
    return new Builder(taskId, Priority.BACKGROUND, scope, routeTemplate, method, target, requestClass, createdAt);
  }

  /** Whether the method may change state at the provider: anything but GET, HEAD, OPTIONS, TRACE. */
  public boolean write() {
    return Methods.isWrite(method);
  }

  @Override
  public byte[] payload() {
    return payload.clone();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof NewAction a && a.taskId.equals(taskId) && a.priority == priority && a.scope.equals(scope)
        && a.routeTemplate.equals(routeTemplate) && a.method.equals(method) && a.target.equals(target) && a.requestClass.equals(requestClass)
        && a.headers.equals(headers) && Arrays.equals(a.payload, payload) && a.idempotencyKey.equals(idempotencyKey)
        && a.externalReference.equals(externalReference) && a.state == state && a.createdAt.equals(createdAt) && a.dueAt.equals(dueAt)
        && a.deadline.equals(deadline);
  }

  @Override
  public int hashCode() {
    return Objects.hash(taskId, scope, method, target, createdAt, Arrays.hashCode(payload));
  }

  @Override
  public String toString() {
    // No headers, body or key: toString ends up in logs.
    return "NewAction[" + taskId + " " + method + " " + routeTemplate + " on " + scope + ", " + state.code() + ", " + payload.length + " body bytes]";
  }

  private static void requireText(String s, String what) {
    if (s.isEmpty() || s.length() > 255 || s.chars().anyMatch(c -> c < 0x20 || c == 0x7f)) {
      throw new IllegalArgumentException("the " + what + " must be 1-255 characters without control characters");
    }
  }

  /** Builds a {@link NewAction}; see the record components for the defaults. */
  public static final class Builder {
    private final String taskId;
    private Priority priority;
    private final ScopeId scope;
    private final String routeTemplate;
    private final String method;
    private final String target;
    private final RequestClass requestClass;
    private final Instant createdAt;
    private Headers headers = Headers.empty();
    private byte[] payload = new byte[0];
    private String idempotencyKey;
    private String externalReference;
    private Instant dueAt;
    private ActionState state = ActionState.QUEUED;
    private Instant deadline;

    private Builder(String taskId, Priority priority, ScopeId scope, String routeTemplate, String method, String target, RequestClass requestClass,
        Instant createdAt) {
      this.taskId = taskId;
      this.priority = priority;
      this.scope = scope;
      this.routeTemplate = routeTemplate;
      this.method = method;
      this.target = target;
      this.requestClass = requestClass;
      this.createdAt = createdAt;
    }

    public Builder priority(Priority value) {
      this.priority = value;
      return this;
    }

    public Builder headers(Headers value) {
      this.headers = value;
      return this;
    }

    public Builder payload(byte[] value) {
      this.payload = value;
      return this;
    }

    /** The key to send on every attempt; {@code null} for none. */
    public Builder idempotencyKey(String value) {
      this.idempotencyKey = value;
      return this;
    }

    /** The reference already written into the payload; {@code null} for none. */
    public Builder externalReference(String value) {
      this.externalReference = value;
      return this;
    }

    /** Queued, eligible from {@code value}. */
    public Builder dueAt(Instant value) {
      this.dueAt = value;
      this.state = ActionState.QUEUED;
      return this;
    }

    /** Records the action held for an operator's approval (per-call approval): nothing is sent before. */
    public Builder awaitingApproval() {
      this.state = ActionState.AWAITING_APPROVAL;
      return this;
    }

    /** Delayed until {@code value} (e.g. the scope is held by a 429). */
    public Builder delayedUntil(Instant value) {
      this.dueAt = value;
      this.state = ActionState.DELAYED;
      return this;
    }

    /** The task's deadline; {@code null} for none. */
    public Builder deadline(Instant value) {
      this.deadline = value;
      return this;
    }

    public NewAction build() {
      return new NewAction(taskId, priority, scope, routeTemplate, method, target, requestClass, headers, payload,
          Optional.ofNullable(idempotencyKey), Optional.ofNullable(externalReference), state, createdAt, dueAt == null ? createdAt : dueAt,
          Optional.ofNullable(deadline));
    }
  }
}
