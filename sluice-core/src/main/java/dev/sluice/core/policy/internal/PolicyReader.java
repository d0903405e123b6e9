package dev.sluice.core.policy.internal;

import dev.sluice.core.headers.RateLimitDialect;
import dev.sluice.core.policy.Agent;
import dev.sluice.core.policy.AuditPolicy;
import dev.sluice.core.policy.Operator;
import dev.sluice.core.retry.Backoff;
import dev.sluice.core.policy.Credential;
import dev.sluice.core.policy.GatewaySettings;
import dev.sluice.core.policy.ListenAddress;
import dev.sluice.core.policy.Policy;
import dev.sluice.core.policy.PolicyException;
import dev.sluice.core.policy.Provider;
import dev.sluice.core.policy.QuotaExhaustedMatcher;
import dev.sluice.core.policy.QuotaReset;
import dev.sluice.core.policy.Rate;
import dev.sluice.core.policy.RequestClass;
import dev.sluice.core.headers.RetryAfterPolicy;
import dev.sluice.core.policy.Route;
import dev.sluice.core.policy.SecretRef;
import dev.sluice.core.policy.SharedScope;
import java.net.URI;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import org.yaml.snakeyaml.nodes.Node;

/**
 * Reads a composed {@code sluice.yaml} into a {@link Policy}, checking every value and collecting
 * every problem before giving up. The schema (keys, types, defaults, constraints) lives here and in
 * docs/CONFIGURATION.md; keep the two in step.
 *
 * <p>Routes are read by {@link RouteReader}, agents by {@link AgentReader}, shared small values by
 * {@link Fields}; the key lists (the schema) stay here, in one place.
 *
 * <p>Each part is read independently: a broken provider does not hide problems in the next one,
 * and names that exist (a request class with a bad budget, say) still count as defined for
 * cross-references, so one mistake is reported once.
 */
public final class PolicyReader {
  static final List<String> TOP_KEYS = List.of(
      "listen", "data_dir", "store", "request_classes", "shared_scope", "providers", "agents", "retry_after", "backoff",
      "operator", "gateway", "audit", "operators", "escalation");
  static final List<String> OPERATOR_KEYS = List.of("token_env", "token_file");
  static final List<String> GATEWAY_KEYS = List.of("max_request_body_bytes", "max_response_body_bytes", "max_request_headers", "max_header_bytes");
  static final List<String> CLASS_KEYS = List.of("max_attempts", "max_wait_seconds", "retry_statuses");
  static final List<String> SHARED_SCOPE_KEYS = List.of("max_delayed_requests", "max_concurrent_requests");
  static final List<String> RETRY_AFTER_KEYS = List.of("minimum_delay_seconds", "cap_seconds");
  static final List<String> BACKOFF_KEYS = List.of("base_seconds", "max_seconds");
  static final List<String> PROVIDER_KEYS = List.of(
      "base_url", "credential", "scope", "rate", "shared_scope", "idempotency_header", "rate_limit_headers", "quota_exhausted", "routes",
      "allow_plain_http");
  static final List<String> CREDENTIAL_KEYS = List.of("header", "format", "secret_env", "secret_file");
  static final List<String> RATE_KEYS = List.of("requests", "per_seconds", "interactive_reserve", "burst");
  static final List<String> QUOTA_KEYS = List.of("status", "json_pointer", "equals", "reset");
  static final List<String> ROUTE_KEYS = List.of(
      "method", "path", "class", "immutable", "lookup", "external_reference", "operation_id", "approval");
  static final List<String> LOOKUP_KEYS = List.of("method", "path");
  static final List<String> OPERATION_ID_KEYS = List.of("json_pointer", "header");
  static final List<String> AGENT_KEYS = List.of("id", "token_env", "token_file", "providers");

  private static final Map<String, String> TOP_HINTS = hints(
      "providers.<id>", PROVIDER_KEYS, "request_classes.<name>", CLASS_KEYS, "agents[]", List.of("token_env", "token_file", "id"),
      "audit", List.of("signing_key_env", "encryption_key_env", "checkpoint_every"), "operators[]", List.of("permissions"));
  private static final Map<String, String> PROVIDER_HINTS = hints(
      "credential", CREDENTIAL_KEYS, "rate", RATE_KEYS, "shared_scope", SHARED_SCOPE_KEYS, "routes[]", List.of("method", "path", "class", "lookup"));
  static final Map<String, String> ROUTE_HINTS = hints("lookup", List.of(), "operation_id", List.of("json_pointer", "header"));

  private static final String EXPECT_CLASSES = "a mapping of request class names to {max_attempts, max_wait_seconds, retry_statuses}";

  private final Problems problems;
  /** Class names defined (valid or not) — for cross-references. */
  private final Set<String> classNames = new HashSet<>();
  /** Route class references to check once all classes are known. */
  private final List<YamlValue> classRefs = new ArrayList<>();
  private final Set<String> providerIds = new HashSet<>();

  private PolicyReader(Problems problems) {
    this.problems = problems;
  }

  /**
   * Parses and validates a whole policy.
   *
   * @throws PolicyException with every problem found
   */
  public static Policy read(String text, String sourceName) {
    Problems problems = new Problems(sourceName);
    Optional<Node> root = YamlComposer.compose(text, problems);
    if (root.isEmpty()) {
      if (problems.isEmpty()) {
        problems.at((org.yaml.snakeyaml.error.Mark) null, "", "the file holds no settings; expected a mapping with at least "
            + "'providers' (see examples/sluice.yaml), or '{}' for every default");
      }
      throw new PolicyException(problems.sorted());
    }
    PolicyReader reader = new PolicyReader(problems);
    Optional<Policy> policy = reader.policy(new YamlValue(root.get(), "", problems));
    if (!problems.isEmpty() || policy.isEmpty()) {
      if (problems.isEmpty()) {
        problems.at(root.get(), "", "the policy is inconsistent"); // unreachable when the checks above are complete
      }
      throw new PolicyException(problems.sorted());
    }
    return policy.get();
  }

  private Optional<Policy> policy(YamlValue root) {
    Optional<YamlMapping> top = root.mapping(TOP_KEYS, TOP_HINTS,
        "a mapping of policy sections (listen, data_dir, request_classes, providers, agents, ...)");
    if (top.isEmpty()) {
      return Optional.empty();
    }
    YamlMapping m = top.get();
    int before = problems.count();

    ListenAddress listen = m.optional("listen").flatMap(this::listen).orElse(ListenAddress.DEFAULT);
    Path dataDir = m.optional("data_dir").flatMap(this::dataDir).orElse(Policy.DEFAULT_DATA_DIR);
    Optional<String> store = m.optional("store").flatMap(this::store);
    Map<String, RequestClass> classes = m.has("request_classes")
        ? requestClasses(m, m.optional("request_classes"))
        : new LinkedHashMap<>(RequestClass.seedDefaults());
    if (!m.has("request_classes")) {
      classNames.addAll(RequestClass.seedDefaults().keySet());
    }
    SharedScope defaultScope = m.optional("shared_scope")
        .flatMap(v -> sharedScope(v, SharedScope.SEED_DEFAULT))
        .orElse(SharedScope.SEED_DEFAULT);
    RetryAfterPolicy retryAfter = m.optional("retry_after").flatMap(this::retryAfter).orElse(RetryAfterPolicy.defaults());
    Backoff backoff = m.optional("backoff").flatMap(this::backoff).orElse(Backoff.SEED_DEFAULT);
    Map<String, Provider> providers = m.optional("providers").map(v -> providers(v, defaultScope)).orElse(Map.of());
    List<Agent> agents = m.optional("agents").map(x -> new AgentReader(problems, providerIds).agents(x)).orElse(List.of());
    GatewaySettings gateway = m.optional("gateway").flatMap(this::gateway).orElse(GatewaySettings.DEFAULTS);
    Optional<SecretRef> operator = m.optional("operator").flatMap(this::operator);
    GatewaySettings gatewaySettings = operator.map(gateway::withOperatorToken).orElse(gateway);
    // "audit:" with nothing after it turns the log on with every default, like "audit: {}".
    Optional<AuditPolicy> audit = !m.has("audit") ? Optional.empty()
        : m.optional("audit").map(x -> new AuditBlockReader(problems).audit(x)).orElse(Optional.of(AuditPolicy.DEFAULTS));
    List<Operator> operators = m.optional("operators").map(x -> new OperatorReader(problems).operators(x, m.has("operator"))).orElse(List.of());
    dev.sluice.core.policy.EscalationSettings escalation = m.optional("escalation").flatMap(x -> EscalationReader.read(x, problems))
        .orElse(dev.sluice.core.policy.EscalationSettings.DEFAULTS);

    for (YamlValue ref : classRefs) {
      String name = ((org.yaml.snakeyaml.nodes.ScalarNode) ref.node()).getValue();
      if (!classNames.contains(name)) {
        ref.error("request class '" + name + "' is not defined" + Suggest.didYouMean(name, classNames)
            + " (defined: " + String.join(", ", Fields.sorted(classNames)) + ")");
      }
    }
    if (problems.count() > before) {
      return Optional.empty();
    }
    return Fields.build(root, () -> new Policy(listen, dataDir, store, classes, defaultScope, providers, agents, retryAfter, backoff, gatewaySettings,
        audit, operators, escalation));
  }

  // ---------------------------------------------------------------- gateway

  private Optional<SecretRef> operator(YamlValue v) {
    Optional<YamlMapping> m = v.mapping(OPERATOR_KEYS, null, "a mapping with token_env or token_file (the operator's token for the admin API)");
    return m.flatMap(x -> Fields.secretRef(x, "token_env", "token_file", "SLUICE_OPERATOR_TOKEN"));
  }

  private Optional<GatewaySettings> gateway(YamlValue v) {
    int before = problems.count();
    Optional<YamlMapping> mo = v.mapping(GATEWAY_KEYS, null,
        "a mapping with max_request_body_bytes, max_response_body_bytes, max_request_headers, max_header_bytes");
    if (mo.isEmpty()) {
      return Optional.empty();
    }
    YamlMapping m = mo.get();
    GatewaySettings d = GatewaySettings.DEFAULTS;
    int req = m.optional("max_request_body_bytes").flatMap(x -> x.integer(0, 1L << 30, "0 to 1073741824")).orElse(d.maxRequestBodyBytes());
    int resp = m.optional("max_response_body_bytes")
        .flatMap(x -> x.integer(0, GatewaySettings.RESPONSE_BODY_LIMIT, "0 to " + GatewaySettings.RESPONSE_BODY_LIMIT + " (what the engine keeps of an answer)"))
        .orElse(d.maxResponseBodyBytes());
    int headers = m.optional("max_request_headers").flatMap(x -> x.integer(1, 10_000, "1 to 10000")).orElse(d.maxRequestHeaders());
    int headBytes = m.optional("max_header_bytes").flatMap(x -> x.integer(1024, 1 << 20, "1024 to 1048576")).orElse(d.maxHeaderBytes());
    if (problems.count() > before) {
      return Optional.empty();
    }
    return Fields.build(v, () -> new GatewaySettings(Optional.empty(), req, resp, headers, headBytes));
  }

  // ---------------------------------------------------------------- top-level scalars

  private Optional<ListenAddress> listen(YamlValue v) {
    return v.string("HOST:PORT such as 127.0.0.1:7070").flatMap(s -> {
      try {
        return Optional.of(ListenAddress.parse(s));
      } catch (IllegalArgumentException e) {
        v.error("found '" + s + "': " + e.getMessage());
        return Optional.empty();
      }
    });
  }

  private Optional<Path> dataDir(YamlValue v) {
    return v.string("a directory path such as ./sluice-data").flatMap(s -> {
      if (s.isBlank() || Syntax.hasControl(s)) {
        v.error("found an empty or unprintable path, expected a directory path such as ./sluice-data");
        return Optional.empty();
      }
      try {
        return Optional.of(Path.of(s));
      } catch (InvalidPathException e) {
        v.error("found '" + s + "', which is not a valid path here: " + e.getReason());
        return Optional.empty();
      }
    });
  }

  private Optional<String> store(YamlValue v) {
    return v.secretString("a JDBC URL such as jdbc:postgresql://127.0.0.1:5432/sluice").flatMap(s -> {
      // Not echoed: a store URL may carry a password.
      if (!s.startsWith("jdbc:") || s.length() < 8 || Syntax.hasControl(s)) {
        v.error("found a value that is not a JDBC URL (not shown, it may hold a password); expected e.g. jdbc:postgresql://127.0.0.1:5432/sluice");
        return Optional.empty();
      }
      return Optional.of(s);
    });
  }

  // ---------------------------------------------------------------- request classes

  private Map<String, RequestClass> requestClasses(YamlMapping top, Optional<YamlValue> value) {
    Map<String, RequestClass> out = new LinkedHashMap<>();
    if (value.isEmpty()) {
      top.self().problems().at(top.keyNode("request_classes"), "request_classes",
          "found an empty value, expected " + EXPECT_CLASSES + " (leave the key out for the seed's three classes)");
      classNames.addAll(RequestClass.seedDefaults().keySet()); // avoid a cascade of "class not defined"
      return out;
    }
    YamlValue v = value.get();
    Optional<YamlMapping> m = v.mapping(null, null, EXPECT_CLASSES);
    if (m.isEmpty()) {
      classNames.addAll(RequestClass.seedDefaults().keySet());
      return out;
    }
    for (Map.Entry<String, YamlMapping.Entry> e : m.get().entries().entrySet()) {
      String name = e.getKey();
      classNames.add(name);
      YamlValue cv = e.getValue().value();
      if (!RequestClass.NAME.matcher(name).matches()) {
        problems.at(e.getValue().key(), cv.path(), "'" + name + "' is not a valid request class name; expected letters, digits and _ . : -");
        continue;
      }
      requestClass(name, cv).ifPresent(c -> out.put(name, c));
    }
    for (String needed : List.of(RequestClass.READ, RequestClass.UNCERTAIN_WRITE)) {
      if (!classNames.contains(needed)) {
        String why = needed.equals(RequestClass.READ) ? "unmatched GET and HEAD requests use it" : "unmatched requests other than GET and HEAD use it";
        String rename = Suggest.closest(needed, classNames).map(c -> "; did you mean to name '" + c + "' '" + needed + "'?").orElse("");
        problems.at(top.keyNode("request_classes"), "request_classes",
            "request class '" + needed + "' is missing; " + why + rename);
      }
    }
    return out;
  }

  private Optional<RequestClass> requestClass(String name, YamlValue v) {
    int before = problems.count();
    Optional<YamlMapping> m = v.mapping(CLASS_KEYS, null, "a mapping with max_attempts, max_wait_seconds and retry_statuses");
    if (m.isEmpty()) {
      return Optional.empty();
    }
    Optional<Integer> attempts = m.get().required("max_attempts", "a whole number, at least 1 (1 = never repeat)")
        .flatMap(x -> x.integer(1, 1000, "at least 1 (1 = never repeat), at most 1000"));
    Optional<Duration> wait = m.get().required("max_wait_seconds", "seconds, zero or more")
        .flatMap(x -> x.seconds(true));
    List<Integer> statuses = m.get().required("retry_statuses", "a list of HTTP statuses such as [429, 503], or [] for none")
        .map(this::statusList).orElse(List.of());
    if (problems.count() > before) {
      return Optional.empty();
    }
    return Fields.build(v, () -> new RequestClass(name, attempts.get(), wait.get(), statuses));
  }

  private List<Integer> statusList(YamlValue v) {
    List<Integer> out = new ArrayList<>();
    Map<Integer, Integer> firstLine = new HashMap<>();
    v.list("a list of HTTP statuses such as [429, 503], or [] for none").ifPresent(items -> {
      for (YamlValue item : items) {
        item.integer(100, 599, "an HTTP status, 100-599").ifPresent(s -> {
          Integer first = firstLine.putIfAbsent(s, item.line());
          if (first != null) {
            item.error("status " + s + " is listed twice");
          } else {
            out.add(s);
          }
        });
      }
    });
    return out;
  }

  // ---------------------------------------------------------------- engine-wide settings

  private Optional<SharedScope> sharedScope(YamlValue v, SharedScope defaults) {
    int before = problems.count();
    Optional<YamlMapping> m = v.mapping(SHARED_SCOPE_KEYS, null, "a mapping with max_delayed_requests and max_concurrent_requests");
    if (m.isEmpty()) {
      return Optional.empty();
    }
    int delayed = m.get().optional("max_delayed_requests").flatMap(x -> x.integer(0, 1_000_000, "zero or more, at most 1000000"))
        .orElse(defaults.maxDelayedRequests());
    int concurrent = m.get().optional("max_concurrent_requests").flatMap(x -> x.integer(1, 10_000, "at least 1, at most 10000"))
        .orElse(defaults.maxConcurrentRequests());
    if (problems.count() > before) {
      return Optional.empty();
    }
    return Fields.build(v, () -> new SharedScope(delayed, concurrent));
  }

  private Optional<RetryAfterPolicy> retryAfter(YamlValue v) {
    int before = problems.count();
    Optional<YamlMapping> m = v.mapping(RETRY_AFTER_KEYS, null, "a mapping with minimum_delay_seconds and cap_seconds");
    if (m.isEmpty()) {
      return Optional.empty();
    }
    Duration min = m.get().optional("minimum_delay_seconds").flatMap(x -> x.seconds(false))
        .orElse(RetryAfterPolicy.defaults().minimumDelay());
    Optional<YamlValue> capNode = m.get().optional("cap_seconds");
    Duration cap = capNode.flatMap(x -> x.seconds(false)).orElse(RetryAfterPolicy.defaults().cap());
    if (problems.count() > before) {
      return Optional.empty();
    }
    if (cap.compareTo(min) < 0) {
      (capNode.isPresent() ? capNode.get() : v).error("cap_seconds (" + seconds(cap) + ") is below minimum_delay_seconds ("
          + seconds(min) + "); expected cap_seconds >= minimum_delay_seconds");
      return Optional.empty();
    }
    return Fields.build(v, () -> new RetryAfterPolicy(min, cap));
  }

  private Optional<Backoff> backoff(YamlValue v) {
    int before = problems.count();
    Optional<YamlMapping> m = v.mapping(BACKOFF_KEYS, null, "a mapping with base_seconds and max_seconds");
    if (m.isEmpty()) {
      return Optional.empty();
    }
    Duration base = m.get().optional("base_seconds").flatMap(x -> x.seconds(false)).orElse(Backoff.SEED_DEFAULT.base());
    Optional<YamlValue> maxNode = m.get().optional("max_seconds");
    Duration max = maxNode.flatMap(x -> x.seconds(false)).orElse(Backoff.SEED_DEFAULT.max());
    if (problems.count() > before) {
      return Optional.empty();
    }
    if (max.compareTo(base) < 0) {
      (maxNode.isPresent() ? maxNode.get() : v).error("max_seconds (" + seconds(max) + ") is below base_seconds ("
          + seconds(base) + "); expected max_seconds >= base_seconds");
      return Optional.empty();
    }
    return Fields.build(v, () -> new Backoff(base, max));
  }

  // ---------------------------------------------------------------- providers

  private Map<String, Provider> providers(YamlValue v, SharedScope defaultScope) {
    Map<String, Provider> out = new LinkedHashMap<>();
    Optional<YamlMapping> m = v.mapping(null, null, "a mapping of provider ids to provider settings (base_url, credential, routes, ...)");
    if (m.isEmpty()) {
      return out;
    }
    for (Map.Entry<String, YamlMapping.Entry> e : m.get().entries().entrySet()) {
      String id = e.getKey();
      providerIds.add(id);
      YamlValue pv = e.getValue().value();
      boolean idOk = Syntax.PROVIDER_ID.matcher(id).matches();
      if (!idOk) {
        problems.at(e.getValue().key(), pv.path(), "'" + id + "' is not a valid provider id; expected letters, digits, _ and -, "
            + "starting with a letter or digit, at most 64 characters (it becomes the first segment of gateway URLs)");
      }
      // Checked even with a bad id, so its other mistakes show up in the same run.
      provider(id, pv, defaultScope, idOk).ifPresent(x -> out.put(id, x));
    }
    return out;
  }

  private Optional<Provider> provider(String id, YamlValue v, SharedScope defaultScope, boolean idOk) {
    int before = problems.count();
    Optional<YamlMapping> mo = v.mapping(PROVIDER_KEYS, PROVIDER_HINTS, "a mapping with base_url, credential, routes, ...");
    if (mo.isEmpty()) {
      return Optional.empty();
    }
    YamlMapping m = mo.get();
    Optional<URI> baseUrl = m.required("base_url", "an absolute http or https URL such as https://api.example.com")
        .flatMap(this::baseUrl);
    Optional<Credential> credential = m.optional("credential").flatMap(this::credential);
    String scope = m.optional("scope").flatMap(this::scope).orElse(Provider.defaultScope(id));
    Optional<Rate> rate = m.optional("rate").flatMap(this::rate);
    SharedScope shared = m.optional("shared_scope").flatMap(x -> sharedScope(x, defaultScope)).orElse(defaultScope);
    Optional<String> idem = m.optional("idempotency_header").flatMap(x -> Fields.headerName(x, "idempotency_header"));
    Map<String, RateLimitDialect> dialects = new LinkedHashMap<>();
    for (RateLimitDialect d : RateLimitDialect.values()) {
      dialects.put(d.configName(), d);
    }
    RateLimitDialect dialect = m.optional("rate_limit_headers").flatMap(x -> x.choice(dialects)).orElse(RateLimitDialect.AUTO);
    List<QuotaExhaustedMatcher> quota = m.optional("quota_exhausted").map(this::quotaMatchers).orElse(List.of());
    boolean hasIdempotency = m.optional("idempotency_header").isPresent();
    List<Route> routes = m.optional("routes").map(x -> new RouteReader(problems, classRefs).routes(x, hasIdempotency)).orElse(List.of());
    Optional<YamlValue> plainNode = m.optional("allow_plain_http");
    boolean allowPlain = plainNode.flatMap(YamlValue::bool).orElse(false);
    if (problems.count() > before || !idOk) {
      return Optional.empty();
    }
    if (credential.isPresent() && !allowPlain && !BaseUrls.isHttpsOrLoopback(baseUrl.get())) {
      m.optional("base_url").orElse(v).error("the credential would travel over plain http to a host that is not loopback; "
          + "use https, or set allow_plain_http: true on this provider if the network path is trusted");
      return Optional.empty();
    }
    return Fields.build(v, () -> new Provider(id, baseUrl.get(), credential, scope, rate, shared, idem, dialect, quota, routes, allowPlain));
  }

  private Optional<URI> baseUrl(YamlValue v) {
    return v.string("an absolute http or https URL such as https://api.example.com").flatMap(s -> {
      Optional<String> bad = BaseUrls.problem(s);
      if (bad.isPresent()) {
        v.error(bad.get());
        return Optional.empty();
      }
      return Optional.of(URI.create(s));
    });
  }

  private Optional<Credential> credential(YamlValue v) {
    int before = problems.count();
    Optional<YamlMapping> mo = v.mapping(CREDENTIAL_KEYS, null, "a mapping with header, format and secret_env or secret_file");
    if (mo.isEmpty()) {
      return Optional.empty();
    }
    YamlMapping m = mo.get();
    String header = m.optional("header").flatMap(x -> Fields.headerName(x, "credential.header")).orElse("Authorization");
    String format = m.optional("format").flatMap(this::credentialFormat).orElse("Bearer {secret}");
    Optional<SecretRef> secret = Fields.secretRef(m, "secret_env", "secret_file", "BILLING_API_TOKEN");
    if (problems.count() > before) {
      return Optional.empty();
    }
    return Fields.build(v, () -> new Credential(header, format, secret.get()));
  }

  private Optional<String> credentialFormat(YamlValue v) {
    return v.secretString("a header value format containing {secret}, such as \"Bearer {secret}\"").flatMap(s -> {
      int first = s.indexOf(Credential.PLACEHOLDER);
      if (first < 0) {
        v.error("the format has no {secret} placeholder (value not shown: it may be the secret itself); expected e.g. \"Bearer {secret}\"");
        return Optional.empty();
      }
      if (s.indexOf(Credential.PLACEHOLDER, first + 1) >= 0) {
        v.error("the format contains {secret} more than once; expected it exactly once");
        return Optional.empty();
      }
      if (Syntax.hasControl(s)) {
        v.error("the format contains a control character (line break, tab, ...); a header value cannot");
        return Optional.empty();
      }
      return Optional.of(s);
    });
  }


  private Optional<String> scope(YamlValue v) {
    return v.string("a scope name such as account:ops-team").flatMap(s -> {
      if (s.isBlank() || s.length() > 200 || Syntax.hasControl(s)) {
        v.error("found an empty, over-long or unprintable scope, expected 1-200 printable characters such as account:ops-team");
        return Optional.empty();
      }
      return Optional.of(s);
    });
  }


  private Optional<Rate> rate(YamlValue v) {
    int before = problems.count();
    Optional<YamlMapping> mo = v.mapping(RATE_KEYS, null, "a mapping with requests and per_seconds (and optionally interactive_reserve, burst)");
    if (mo.isEmpty()) {
      return Optional.empty();
    }
    YamlMapping m = mo.get();
    Optional<Integer> requests = m.required("requests", "a whole number of requests, more than 0")
        .flatMap(x -> x.integer(1, Integer.MAX_VALUE, "more than 0"));
    Optional<Duration> per = m.required("per_seconds", "the window in seconds, more than 0").flatMap(x -> x.seconds(false));
    double reserve = Rate.DEFAULT_INTERACTIVE_RESERVE;
    Optional<YamlValue> rv = m.optional("interactive_reserve");
    if (rv.isPresent()) {
      Optional<java.math.BigDecimal> n = rv.get().number("a share in [0, 1), such as 0.2");
      if (n.isPresent()) {
        if (n.get().signum() < 0 || n.get().compareTo(java.math.BigDecimal.ONE) >= 0) {
          rv.get().error("found " + n.get().toPlainString() + ", expected a share in [0, 1) such as 0.2 (1 would leave nothing for background work)");
        } else {
          reserve = n.get().doubleValue();
        }
      }
    }
    OptionalInt burst = OptionalInt.empty();
    Optional<YamlValue> bv = m.optional("burst");
    if (bv.isPresent()) {
      Optional<Integer> b = bv.get().integer(1, Integer.MAX_VALUE, "more than 0");
      if (b.isPresent()) {
        if (requests.isPresent() && b.get() > requests.get()) {
          bv.get().error("found " + b.get() + ", expected at most requests (" + requests.get() + ")");
        } else {
          burst = OptionalInt.of(b.get());
        }
      }
    }
    if (problems.count() > before) {
      return Optional.empty();
    }
    double r = reserve;
    OptionalInt bu = burst;
    return Fields.build(v, () -> new Rate(requests.get(), per.get(), r, bu));
  }

  private List<QuotaExhaustedMatcher> quotaMatchers(YamlValue v) {
    List<QuotaExhaustedMatcher> out = new ArrayList<>();
    v.list("a list of matchers such as {status: 429, json_pointer: /error/code, equals: insufficient_quota, reset: daily}")
        .ifPresent(items -> items.forEach(item -> quotaMatcher(item).ifPresent(out::add)));
    return out;
  }

  private Optional<QuotaExhaustedMatcher> quotaMatcher(YamlValue v) {
    int before = problems.count();
    Optional<YamlMapping> mo = v.mapping(QUOTA_KEYS, null, "a mapping with status, reset and optionally json_pointer and equals");
    if (mo.isEmpty()) {
      return Optional.empty();
    }
    YamlMapping m = mo.get();
    Optional<Integer> status = m.required("status", "an HTTP status, 100-599").flatMap(x -> x.integer(100, 599, "an HTTP status, 100-599"));
    Optional<String> pointer = m.optional("json_pointer").flatMap(Fields::jsonPointer);
    Optional<Object> equals = m.optional("equals").flatMap(x -> x.scalarValue("a string, number or boolean to compare with"));
    if (m.has("equals") && !m.has("json_pointer")) {
      problems.at(m.keyNode("equals"), YamlValue.child(m.self().path(), "equals"),
          "equals needs a json_pointer saying which value of the body to compare");
    }
    Map<String, QuotaReset> resets = new LinkedHashMap<>();
    for (QuotaReset r : QuotaReset.values()) {
      resets.put(r.configName(), r);
    }
    Optional<QuotaReset> reset = m.required("reset", "one of daily, billing, explicit").flatMap(x -> x.choice(resets));
    if (problems.count() > before) {
      return Optional.empty();
    }
    return Fields.build(v, () -> new QuotaExhaustedMatcher(status.get(), pointer, equals, reset.get()));
  }










  // ---------------------------------------------------------------- helpers



  private static String seconds(Duration d) {
    return java.math.BigDecimal.valueOf(d.toNanos(), 9).stripTrailingZeros().toPlainString();
  }

  static Map<String, String> hints(Object... pairs) {
    Map<String, String> out = new HashMap<>();
    for (int i = 0; i < pairs.length; i += 2) {
      String where = (String) pairs[i];
      @SuppressWarnings("unchecked")
      List<String> keys = (List<String>) pairs[i + 1];
      for (String k : keys) {
        out.putIfAbsent(k, where);
      }
    }
    return out;
  }
}
