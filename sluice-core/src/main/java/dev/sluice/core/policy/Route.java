package dev.sluice.core.policy;

import dev.sluice.core.policy.internal.Syntax;
import java.util.Objects;
import java.util.Optional;

/**
 * One declared route of a provider ({@code providers.P.routes[]}): which requests it covers and how
 * Sluice treats them.
 *
 * @param method an HTTP method ({@code GET}, {@code POST}, ...), compared exactly (case-sensitively);
 *     the loader only accepts upper-case methods in declared routes
 * @param path the path template, see {@link RouteTemplate} for the matching rule
 * @param requestClass the name of a request class ({@code class}); it must exist in the policy
 * @param immutable the resource never changes, so identical concurrent reads may be coalesced;
 *     only for GET and HEAD; default false
 * @param lookup how to reconcile an action whose outcome is unknown; absent: no look-up
 * @param externalReference the name of a top-level JSON body field that Sluice fills with a stable
 *     client-generated reference before the first send (create-and-look-up); not for GET/HEAD
 * @param operationId where the provider's operation id is found in the response; optional
 * @param approval {@link Approval#PER_CALL} to hold every action for an operator; default {@link
 *     Approval#NONE}
 */
public record Route(
    String method,
    RouteTemplate path,
    String requestClass,
    boolean immutable,
    Optional<Lookup> lookup,
    Optional<String> externalReference,
    Optional<OperationIdSource> operationId,
    Approval approval) {

  public Route {
    Objects.requireNonNull(method, "method");
    Objects.requireNonNull(path, "path");
    Objects.requireNonNull(requestClass, "requestClass");
    Objects.requireNonNull(lookup, "lookup");
    Objects.requireNonNull(externalReference, "externalReference");
    Objects.requireNonNull(operationId, "operationId");
    Objects.requireNonNull(approval, "approval");
    if (!Syntax.isToken(method)) {
      throw new IllegalArgumentException("method must be an HTTP method token such as GET or POST, got '" + method + "'");
    }
    if (immutable && !isRead(method)) {
      throw new IllegalArgumentException("only GET and HEAD routes can be immutable (coalescing is for reads), got " + method);
    }
    if (externalReference.isPresent()) {
      String f = externalReference.get();
      if (isRead(method)) {
        throw new IllegalArgumentException("external_reference is a body field; " + method + " requests have no body");
      }
      if (f.isEmpty() || f.length() > 128 || Syntax.hasControl(f)) {
        throw new IllegalArgumentException("external_reference must be a body field name of 1-128 characters without control characters");
      }
    }
  }

  /** A route with the defaults: not immutable, no look-up, no external reference or operation id, no approval. */
  public static Builder builder(String method, String path, String requestClass) {
    return new Builder(method, RouteTemplate.compile(path), requestClass);
  }

  /**
   * The synthetic route of a request no declared route matches: {@code read} for GET and HEAD,
   * {@code uncertain_write} for any other method (so an unknown write is never repeated blindly).
   * Methods are case-sensitive: {@code get} is not GET and so falls under {@code uncertain_write}.
   *
   * @throws IllegalArgumentException when the method is not an HTTP token
   */
  public static Route unmatched(String method) {
    String cls = isRead(method) ? RequestClass.READ : RequestClass.UNCERTAIN_WRITE;
    return new Route(method, RouteTemplate.any(), cls, false, Optional.empty(), Optional.empty(), Optional.empty(), Approval.NONE);
  }

  /** Whether the method is GET or HEAD, the methods the unmatched-route rule treats as reads. */
  public static boolean isRead(String method) {
    return "GET".equals(method) || "HEAD".equals(method);
  }

  /** Whether the text is an HTTP method token without lower-case letters. */
  public static boolean isMethod(String method) {
    return Syntax.isToken(method) && method.chars().noneMatch(c -> c >= 'a' && c <= 'z');
  }

  /** Builds a {@link Route}; see the record components for the defaults. */
  public static final class Builder {
    private final String method;
    private final RouteTemplate path;
    private final String requestClass;
    private boolean immutable;
    private Lookup lookup;
    private String externalReference;
    private OperationIdSource operationId;
    private Approval approval = Approval.NONE;

    private Builder(String method, RouteTemplate path, String requestClass) {
      this.method = method;
      this.path = path;
      this.requestClass = requestClass;
    }

    public Builder immutable(boolean value) {
      this.immutable = value;
      return this;
    }

    public Builder lookup(String method, String template) {
      this.lookup = new Lookup(method, LookupTemplate.compile(template));
      return this;
    }

    public Builder externalReference(String bodyField) {
      this.externalReference = bodyField;
      return this;
    }

    public Builder operationId(OperationIdSource source) {
      this.operationId = source;
      return this;
    }

    public Builder approval(Approval value) {
      this.approval = value;
      return this;
    }

    public Route build() {
      return new Route(method, path, requestClass, immutable, Optional.ofNullable(lookup), Optional.ofNullable(externalReference),
          Optional.ofNullable(operationId), approval);
    }
  }
}
