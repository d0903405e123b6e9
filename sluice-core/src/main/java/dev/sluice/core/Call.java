package dev.sluice.core;

import dev.sluice.core.engine.Priority;
import dev.sluice.core.http.Headers;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Arrays;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;

/**
 * One call an agent wants made through Sluice: what {@link Sluice#submit} takes. Only {@code null}
 * is refused here; everything an agent controls (method, path, headers, key, body size) is checked
 * by {@link Sluice#submit}, which answers a malformed call with a {@code refused} outcome rather than
 * an exception.
 *
 * <pre>{@code
 * Call call = Call.builder("billing-api", "GET", "/v1/invoices/inv_1")
 *     .task("sync-482").priority(Priority.BACKGROUND).build();
 * }</pre>
 *
 * @param provider a provider id from the policy ({@code providers.ID})
 * @param method the HTTP method, upper case ({@code GET}, {@code POST}, ...)
 * @param target the path and optional query relative to the provider's base URL, still
 *     percent-encoded: {@code /v1/invoices/42?expand=lines}
 * @param headers the agent's header fields; the credential, framing and hop-by-hop fields are
 *     Sluice's and never forwarded from here
 * @param body the request body, possibly empty
 * @param taskId the agent's task run: cancellation and deadlines act on it; default a fresh
 *     {@code call-<uuid>} (a task of its own)
 * @param priority interactive (default) or background; background work may not use the scope's
 *     interactive reserve
 * @param idempotencyKey the key for a write, when the agent has one; otherwise Sluice generates one
 *     per call (for providers with an {@code idempotency_header}); ignored for reads
 * @param deadline the task's deadline: no action of the task waits or is sent past it (a later
 *     call with another deadline replaces it for the task)
 * @param goal the task's stated goal in words ({@code Sluice-Task-Goal} through the gateway), shown
 *     to an operator in an escalation's dossier; at most 500 characters are kept
 */
public record Call(
    String provider,
    String method,
    String target,
    Headers headers,
    byte[] body,
    String taskId,
    Priority priority,
    Optional<String> idempotencyKey,
    Optional<Instant> deadline,
    Optional<String> goal) {

  /** A call without a stated goal. */
  public Call(String provider, String method, String target, Headers headers, byte[] body, String taskId, Priority priority,
      Optional<String> idempotencyKey, Optional<Instant> deadline) {
    this(provider, method, target, headers, body, taskId, priority, idempotencyKey, deadline, Optional.empty());
  }

  public Call {
    Objects.requireNonNull(provider, "provider");
    Objects.requireNonNull(method, "method");
    Objects.requireNonNull(target, "target");
    Objects.requireNonNull(headers, "headers");
    body = body == null ? new byte[0] : body.clone();
    Objects.requireNonNull(taskId, "taskId");
    Objects.requireNonNull(priority, "priority");
    Objects.requireNonNull(idempotencyKey, "idempotencyKey");
    Objects.requireNonNull(deadline, "deadline");
    Objects.requireNonNull(goal, "goal");
  }

  /** A builder for {@code method target} at {@code provider}; see the components for defaults. */
  public static Builder builder(String provider, String method, String target) {
    return new Builder(provider, method, target);
  }

  /** A GET of {@code target} in task {@code taskId}, everything else at its default. */
  public static Call get(String provider, String target, String taskId) {
    return builder(provider, "GET", target).task(taskId).build();
  }

  @Override
  public byte[] body() {
    return body.clone();
  }

  /** The body size in bytes, without copying it. */
  public int bodyLength() {
    return body.length;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Call c && c.provider.equals(provider) && c.method.equals(method) && c.target.equals(target) && c.headers.equals(headers)
        && Arrays.equals(c.body, body) && c.taskId.equals(taskId) && c.priority == priority && c.idempotencyKey.equals(idempotencyKey)
        && c.deadline.equals(deadline) && c.goal.equals(goal);
  }

  @Override
  public int hashCode() {
    return Objects.hash(provider, method, target, taskId, Arrays.hashCode(body));
  }

  /** Leaves headers, body and key out: they may carry personal data. */
  @Override
  public String toString() {
    return "Call[" + provider + " " + method + " " + target + ", task " + taskId + ", " + priority.code() + ", " + body.length + " body bytes]";
  }

  /** Builds a {@link Call}. Not thread-safe. */
  public static final class Builder {
    private final String provider;
    private final String method;
    private final String target;
    private final Headers.Builder headers = Headers.builder();
    private byte[] body = new byte[0];
    private String taskId;
    private Priority priority = Priority.INTERACTIVE;
    private String idempotencyKey;
    private Instant deadline;
    private String goal;

    private Builder(String provider, String method, String target) {
      this.provider = Objects.requireNonNull(provider, "provider");
      this.method = Objects.requireNonNull(method, "method");
      this.target = Objects.requireNonNull(target, "target");
    }

    public Builder task(String id) {
      this.taskId = Objects.requireNonNull(id, "taskId");
      return this;
    }

    /** Adds one header field line. */
    public Builder header(String name, String value) {
      headers.add(name, value);
      return this;
    }

    /** Adds every field line of {@code h}. */
    public Builder headers(Headers h) {
      h.asMap().forEach((n, vs) -> vs.forEach(v -> headers.add(n, v)));
      return this;
    }

    public Builder body(byte[] bytes) {
      this.body = bytes == null ? new byte[0] : bytes.clone();
      return this;
    }

    /** The body as UTF-8 text. */
    public Builder body(String text) {
      return body(text.getBytes(StandardCharsets.UTF_8));
    }

    public Builder priority(Priority p) {
      this.priority = Objects.requireNonNull(p, "priority");
      return this;
    }

    public Builder idempotencyKey(String key) {
      this.idempotencyKey = Objects.requireNonNull(key, "idempotencyKey");
      return this;
    }

    public Builder deadline(Instant at) {
      this.deadline = Objects.requireNonNull(at, "deadline");
      return this;
    }

    /** The task's stated goal, for an operator's dossier (blank: none). */
    public Builder goal(String text) {
      this.goal = text == null || text.isBlank() ? null : text.strip();
      return this;
    }

    public Call build() {
      return new Call(provider, method, target, headers.build(), body, taskId != null ? taskId : "call-" + UUID.randomUUID(), priority,
          Optional.ofNullable(idempotencyKey), Optional.ofNullable(deadline), Optional.ofNullable(goal));
    }
  }
}
