package dev.sluice.core.policy;

import dev.sluice.core.headers.RateLimitDialect;
import dev.sluice.core.policy.internal.BaseUrls;
import dev.sluice.core.policy.internal.Syntax;
import java.net.URI;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * A third-party API Sluice may call ({@code providers.ID}).
 *
 * @param id the key under {@code providers}; letters, digits, {@code _} and {@code -}; it is the
 *     first path segment of gateway URLs ({@code /ID/...})
 * @param baseUrl absolute {@code http}/{@code https} URL without user information, query or
 *     fragment; stored without a trailing slash. Route paths are appended to it
 * @param credential how Sluice authenticates; absent: no credential is injected
 * @param scope the shared pool this provider's calls count against; default {@code
 *     credential:ID} (every worker on the credential shares one pool)
 * @param rate the published quota, optional (pacing then relies on headers and concurrency)
 * @param sharedScope queue and concurrency limits; default the top-level {@code shared_scope}, or
 *     the seed's 25 delayed / 2 concurrent
 * @param idempotencyHeader the request header carrying the idempotency key, e.g. {@code
 *     Idempotency-Key}; absent: the provider has no idempotency support
 * @param rateLimitHeaders which rate-limit header dialect to read; default {@link
 *     RateLimitDialect#AUTO}
 * @param quotaExhausted how to recognise this provider's quota-exhaustion answers; default none
 * @param routes declared routes, in declaration order; no two with the same method and path shape
 * @param allowPlainHttp {@code allow_plain_http}: whether the credential may travel over plain
 *     {@code http} to a host that is not loopback; default false (the policy loader refuses such a
 *     provider, and the gateway logs a warning at start-up when it is set)
 */
public record Provider(
    String id,
    URI baseUrl,
    Optional<Credential> credential,
    String scope,
    Optional<Rate> rate,
    SharedScope sharedScope,
    Optional<String> idempotencyHeader,
    RateLimitDialect rateLimitHeaders,
    List<QuotaExhaustedMatcher> quotaExhausted,
    List<Route> routes,
    boolean allowPlainHttp) {

  /** A provider without {@code allow_plain_http} (the default). */
  public Provider(String id, URI baseUrl, Optional<Credential> credential, String scope, Optional<Rate> rate, SharedScope sharedScope,
      Optional<String> idempotencyHeader, RateLimitDialect rateLimitHeaders, List<QuotaExhaustedMatcher> quotaExhausted, List<Route> routes) {
    this(id, baseUrl, credential, scope, rate, sharedScope, idempotencyHeader, rateLimitHeaders, quotaExhausted, routes, false);
  }

  public Provider {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(baseUrl, "baseUrl");
    Objects.requireNonNull(credential, "credential");
    Objects.requireNonNull(scope, "scope");
    Objects.requireNonNull(rate, "rate");
    Objects.requireNonNull(sharedScope, "sharedScope");
    Objects.requireNonNull(idempotencyHeader, "idempotencyHeader");
    Objects.requireNonNull(rateLimitHeaders, "rateLimitHeaders");
    if (!Syntax.PROVIDER_ID.matcher(id).matches()) {
      throw new IllegalArgumentException("provider id '" + id + "' must match " + Syntax.PROVIDER_ID.pattern());
    }
    Optional<String> bad = BaseUrls.problem(baseUrl);
    if (bad.isPresent()) {
      throw new IllegalArgumentException("base_url of provider '" + id + "': " + bad.get());
    }
    baseUrl = BaseUrls.normalize(baseUrl);
    if (scope.isBlank() || scope.length() > 200 || Syntax.hasControl(scope)) {
      throw new IllegalArgumentException("scope of provider '" + id + "' must be 1-200 characters without control characters");
    }
    idempotencyHeader.ifPresent(h -> {
      if (!Syntax.isToken(h) || Syntax.isReservedHeader(h)) {
        throw new IllegalArgumentException("idempotency_header of provider '" + id + "' must be a header field name, got '" + h + "'");
      }
    });
    quotaExhausted = List.copyOf(quotaExhausted);
    routes = List.copyOf(routes);
    Set<String> shapes = new HashSet<>();
    for (Route r : routes) {
      if (r.path().isCatchAll()) {
        throw new IllegalArgumentException("provider '" + id + "': a declared route needs a real path template");
      }
      if (!shapes.add(r.method() + " " + r.path().shape())) {
        throw new IllegalArgumentException("provider '" + id + "' declares " + r.method() + " " + r.path() + " twice");
      }
      if (r.lookup().isPresent()) {
        for (String p : r.lookup().get().path().placeholders()) {
          Optional<String> why = placeholderProblem(p, r, idempotencyHeader.isPresent());
          if (why.isPresent()) {
            throw new IllegalArgumentException("provider '" + id + "', route " + r.method() + " " + r.path() + ": " + why.get());
          }
        }
      }
    }
  }

  /** Starts a provider with every optional part at its default. */
  public static Builder builder(String id, String baseUrl) {
    return new Builder(id, URI.create(baseUrl));
  }

  /** The scope used when {@code scope} is absent: {@code credential:ID}. */
  public static String defaultScope(String providerId) {
    return "credential:" + providerId;
  }

  /** Whether the provider accepts an idempotency key (it has an {@code idempotency_header}). */
  public boolean supportsIdempotency() {
    return idempotencyHeader.isPresent();
  }

  /**
   * The route a request falls under. Among declared routes with the same method whose template
   * matches (see {@link RouteTemplate}), the one with the most literal segments wins, then the one
   * declared first. When none matches: {@link Route#unmatched} — GET and HEAD are {@code read},
   * every other method {@code uncertain_write}.
   *
   * @param method the request method, compared case-sensitively ({@code get} is not {@code GET}
   *     and so is an unknown write)
   * @param rawTarget the request path relative to the base URL, still percent-encoded, optionally
   *     with a query
   * @throws IllegalArgumentException when the target is unsafe ({@link PathSafety}): the caller
   *     must refuse such a request, never classify it; or when the method is not an HTTP token
   */
  public RouteMatch classify(String method, String rawTarget) {
    Objects.requireNonNull(method, "method");
    Optional<PathSafety.Refusal> unsafe = PathSafety.check(rawTarget);
    if (unsafe.isPresent()) {
      throw new IllegalArgumentException("unsafe path (" + unsafe.get().code() + "): " + unsafe.get().message());
    }
    Route best = null;
    Map<String, String> bestParams = Map.of();
    int bestLiterals = -1;
    for (Route r : routes) {
      if (!r.method().equals(method)) {
        continue;
      }
      int literals = r.path().literalCount();
      if (literals <= bestLiterals) {
        continue;
      }
      Optional<Map<String, String>> m = r.path().match(rawTarget);
      if (m.isPresent()) {
        best = r;
        bestParams = m.get();
        bestLiterals = literals;
      }
    }
    return best != null ? new RouteMatch(best, bestParams, true) : new RouteMatch(Route.unmatched(method), Map.of(), false);
  }

  /**
   * Why a look-up placeholder cannot be filled for this route, or empty when it can. The names:
   * {@code idempotency_key} (needs an idempotency header), {@code external_reference} (needs the
   * route's external_reference), {@code operation_id} (needs the route's operation_id), or one of
   * the route's path parameters.
   */
  public static Optional<String> placeholderProblem(String name, Route route, boolean providerHasIdempotency) {
    switch (name) {
      case "idempotency_key":
        return providerHasIdempotency
            ? Optional.empty()
            : Optional.of("{idempotency_key} needs the provider's idempotency_header (without it the provider never sees the key)");
      case "external_reference":
        return route.externalReference().isPresent()
            ? Optional.empty()
            : Optional.of("{external_reference} needs the route's external_reference (the body field Sluice fills in)");
      case "operation_id":
        return route.operationId().isPresent()
            ? Optional.empty()
            : Optional.of("{operation_id} needs the route's operation_id (where to find the provider's id)");
      default:
        if (route.path().parameterNames().contains(name)) {
          return Optional.empty();
        }
        List<String> allowed = new ArrayList<>(List.of("idempotency_key", "external_reference", "operation_id"));
        route.path().parameterNames().forEach(p -> allowed.add(p));
        return Optional.of("unknown placeholder {" + name + "}; expected one of " + String.join(", ", allowed.stream().map(a -> "{" + a + "}").toList()));
    }
  }

  /** Builds a {@link Provider}; see the record components for the defaults. */
  public static final class Builder {
    private final String id;
    private final URI baseUrl;
    private Credential credential;
    private String scope;
    private Rate rate;
    private SharedScope sharedScope = SharedScope.SEED_DEFAULT;
    private String idempotencyHeader;
    private RateLimitDialect rateLimitHeaders = RateLimitDialect.AUTO;
    private final List<QuotaExhaustedMatcher> quotaExhausted = new ArrayList<>();
    private final List<Route> routes = new ArrayList<>();
    private boolean allowPlainHttp;

    private Builder(String id, URI baseUrl) {
      this.id = id;
      this.baseUrl = baseUrl;
    }

    public Builder credential(Credential value) {
      this.credential = value;
      return this;
    }

    public Builder scope(String value) {
      this.scope = value;
      return this;
    }

    public Builder rate(Rate value) {
      this.rate = value;
      return this;
    }

    public Builder sharedScope(SharedScope value) {
      this.sharedScope = value;
      return this;
    }

    public Builder idempotencyHeader(String value) {
      this.idempotencyHeader = value;
      return this;
    }

    public Builder rateLimitHeaders(RateLimitDialect value) {
      this.rateLimitHeaders = value;
      return this;
    }

    public Builder quotaExhausted(QuotaExhaustedMatcher value) {
      this.quotaExhausted.add(value);
      return this;
    }

    /** {@code allow_plain_http}: let the credential travel over plain http to a non-loopback host. */
    public Builder allowPlainHttp(boolean value) {
      this.allowPlainHttp = value;
      return this;
    }

    public Builder route(Route value) {
      this.routes.add(value);
      return this;
    }

    public Provider build() {
      return new Provider(id, baseUrl, Optional.ofNullable(credential), scope == null ? defaultScope(id) : scope,
          Optional.ofNullable(rate), sharedScope, Optional.ofNullable(idempotencyHeader), rateLimitHeaders, quotaExhausted, routes,
          allowPlainHttp);
    }
  }
}
