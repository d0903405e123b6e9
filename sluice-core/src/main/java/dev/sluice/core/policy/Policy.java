package dev.sluice.core.policy;

import dev.sluice.core.retry.Backoff;
import dev.sluice.core.headers.RetryAfterPolicy;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * Everything {@code sluice.yaml} configures, validated and immutable. Obtain one from {@link
 * PolicyLoader} (with line-precise errors) or from {@link #builder()}.
 *
 * <p>Invariants (checked here too, so a hand-built policy is as sound as a loaded one): request
 * classes {@code read} and {@code uncertain_write} exist (the unmatched-route rule needs them);
 * every route's class exists; agent ids are unique; every agent's providers exist.
 *
 * @param listen the gateway address; default {@code 127.0.0.1:7070}
 * @param dataDir the embedded store and audit log directory; default {@code ./sluice-data}
 *     (relative to the working directory of the process)
 * @param store a store URL for distributed mode, e.g. {@code jdbc:postgresql://host/db}; absent:
 *     the embedded store in {@code dataDir}. Not printed by {@link #toString()}
 * @param requestClasses by name, in file order; default {@link RequestClass#seedDefaults()}
 * @param sharedScope the top-level {@code shared_scope} (the seed's block): the default of every
 *     provider without its own; default 25 delayed / 2 concurrent
 * @param providers by id, in file order; default none
 * @param agents in file order; default none
 * @param retryAfter bounds on server-given delays; default 1 s minimum, 1 h cap
 * @param backoff the full-jitter backoff; default base 1 s, max 60 s
 * @param gateway the gateway's operator token and size caps ({@code operator}, {@code gateway});
 *     default {@link GatewaySettings#DEFAULTS}
 * @param audit the {@code audit} block; present: the library writes the audit log too (the gateway
 *     always does); default absent
 * @param operators the {@code operators} list (per-operator tokens and permissions); the legacy
 *     {@code operator} block is not in it, see {@link #allOperators()}; default none
 * @param escalation the {@code escalation} block: triggers, rate-limit threshold, webhook
 */
public record Policy(
    ListenAddress listen,
    Path dataDir,
    Optional<String> store,
    Map<String, RequestClass> requestClasses,
    SharedScope sharedScope,
    Map<String, Provider> providers,
    List<Agent> agents,
    RetryAfterPolicy retryAfter,
    Backoff backoff,
    GatewaySettings gateway,
    Optional<AuditPolicy> audit,
    List<Operator> operators,
    EscalationSettings escalation) {

  /** The default {@code data_dir}. */
  public static final Path DEFAULT_DATA_DIR = Path.of("./sluice-data");

  /** A policy with the default gateway settings. */
  public Policy(ListenAddress listen, Path dataDir, Optional<String> store, Map<String, RequestClass> requestClasses, SharedScope sharedScope,
      Map<String, Provider> providers, List<Agent> agents, RetryAfterPolicy retryAfter, Backoff backoff) {
    this(listen, dataDir, store, requestClasses, sharedScope, providers, agents, retryAfter, backoff, GatewaySettings.DEFAULTS);
  }

  /** A policy without an {@code audit} block or {@code operators}. */
  public Policy(ListenAddress listen, Path dataDir, Optional<String> store, Map<String, RequestClass> requestClasses, SharedScope sharedScope,
      Map<String, Provider> providers, List<Agent> agents, RetryAfterPolicy retryAfter, Backoff backoff, GatewaySettings gateway) {
    this(listen, dataDir, store, requestClasses, sharedScope, providers, agents, retryAfter, backoff, gateway, Optional.empty(), List.of());
  }

  /** A policy with the default {@link EscalationSettings}. */
  public Policy(ListenAddress listen, Path dataDir, Optional<String> store, Map<String, RequestClass> requestClasses, SharedScope sharedScope,
      Map<String, Provider> providers, List<Agent> agents, RetryAfterPolicy retryAfter, Backoff backoff, GatewaySettings gateway,
      Optional<AuditPolicy> audit, List<Operator> operators) {
    this(listen, dataDir, store, requestClasses, sharedScope, providers, agents, retryAfter, backoff, gateway, audit, operators,
        EscalationSettings.DEFAULTS);
  }

  public Policy {
    java.util.Objects.requireNonNull(escalation, "escalation");
    Objects.requireNonNull(listen, "listen");
    Objects.requireNonNull(gateway, "gateway");
    Objects.requireNonNull(dataDir, "dataDir");
    Objects.requireNonNull(store, "store");
    Objects.requireNonNull(requestClasses, "requestClasses");
    Objects.requireNonNull(sharedScope, "sharedScope");
    Objects.requireNonNull(providers, "providers");
    Objects.requireNonNull(agents, "agents");
    Objects.requireNonNull(retryAfter, "retryAfter");
    Objects.requireNonNull(backoff, "backoff");
    Objects.requireNonNull(audit, "audit");
    Objects.requireNonNull(operators, "operators");
    Set<String> operatorIds = new HashSet<>();
    if (gateway.operatorToken().isPresent()) {
      operatorIds.add(Operator.LEGACY_ID);
    }
    for (Operator o : operators) {
      if (!operatorIds.add(o.id())) {
        throw new IllegalArgumentException("operator '" + o.id() + "' is defined twice" + (o.id().equals(Operator.LEGACY_ID)
            ? " ('" + Operator.LEGACY_ID + "' is the operator of the 'operator' block)" : ""));
      }
    }
    requestClasses.forEach((k, v) -> {
      if (!k.equals(v.name())) {
        throw new IllegalArgumentException("request class keyed '" + k + "' is named '" + v.name() + "'");
      }
    });
    providers.forEach((k, v) -> {
      if (!k.equals(v.id())) {
        throw new IllegalArgumentException("provider keyed '" + k + "' has id '" + v.id() + "'");
      }
    });
    for (String needed : List.of(RequestClass.READ, RequestClass.UNCERTAIN_WRITE)) {
      if (!requestClasses.containsKey(needed)) {
        throw new IllegalArgumentException("request class '" + needed + "' is required: unmatched routes use it");
      }
    }
    for (Provider p : providers.values()) {
      for (Route r : p.routes()) {
        if (!requestClasses.containsKey(r.requestClass())) {
          throw new IllegalArgumentException("provider '" + p.id() + "', route " + r.method() + " " + r.path() + ": class '" + r.requestClass() + "' is not defined");
        }
      }
    }
    Set<String> agentIds = new HashSet<>();
    for (Agent a : agents) {
      if (!agentIds.add(a.id())) {
        throw new IllegalArgumentException("agent '" + a.id() + "' is defined twice");
      }
      for (String p : a.providers()) {
        if (!providers.containsKey(p)) {
          throw new IllegalArgumentException("agent '" + a.id() + "' lists provider '" + p + "', which is not defined");
        }
      }
    }
    requestClasses = Collections.unmodifiableMap(new LinkedHashMap<>(requestClasses));
    providers = Collections.unmodifiableMap(new LinkedHashMap<>(providers));
    agents = List.copyOf(agents);
    operators = List.copyOf(operators);
  }

  /** The {@code operator} block's operator (every permission), if any, then {@code operators}. */
  public List<Operator> allOperators() {
    List<Operator> all = new ArrayList<>();
    gateway.operatorToken().ifPresent(t -> all.add(Operator.legacy(t)));
    all.addAll(operators);
    return List.copyOf(all);
  }

  /** A builder starting from every default (seed request classes, no providers, no agents). */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * The request class with this name.
   *
   * @throws NoSuchElementException when it is not defined (never for a route's class)
   */
  public RequestClass requestClass(String name) {
    RequestClass c = requestClasses.get(name);
    if (c == null) {
      throw new NoSuchElementException("request class '" + name + "' is not defined; defined: " + requestClasses.keySet());
    }
    return c;
  }

  /** The provider with this id. */
  public Optional<Provider> provider(String id) {
    return Optional.ofNullable(providers.get(id));
  }

  /** The agent with this id. */
  public Optional<Agent> agent(String id) {
    return agents.stream().filter(a -> a.id().equals(id)).findFirst();
  }

  /** The request class a match falls under. */
  public RequestClass requestClass(RouteMatch match) {
    return requestClass(match.requestClass());
  }

  /** Leaves the store URL out: it may carry a password. */
  @Override
  public String toString() {
    return "Policy[listen=" + listen + ", dataDir=" + dataDir + ", store=" + (store.isPresent() ? "<configured>" : "<embedded>")
        + ", requestClasses=" + requestClasses.keySet() + ", sharedScope=" + sharedScope + ", providers=" + providers.keySet()
        + ", agents=" + agents.stream().map(Agent::id).toList() + ", retryAfter=" + retryAfter + ", backoff=" + backoff + "]";
  }

  /** Builds a {@link Policy}; see the record components for the defaults. */
  public static final class Builder {
    private EscalationSettings escalation = EscalationSettings.DEFAULTS;
    private ListenAddress listen = ListenAddress.DEFAULT;
    private Path dataDir = DEFAULT_DATA_DIR;
    private String store;
    private Map<String, RequestClass> requestClasses = new LinkedHashMap<>(RequestClass.seedDefaults());
    private boolean classesReplaced;
    private SharedScope sharedScope = SharedScope.SEED_DEFAULT;
    private final Map<String, Provider> providers = new LinkedHashMap<>();
    private final List<Agent> agents = new ArrayList<>();
    private RetryAfterPolicy retryAfter = RetryAfterPolicy.defaults();
    private Backoff backoff = Backoff.SEED_DEFAULT;
    private GatewaySettings gateway = GatewaySettings.DEFAULTS;
    private AuditPolicy audit;
    private final List<Operator> operators = new ArrayList<>();

    private Builder() {}

    /** Turns the audit log on for the library with these settings ({@code audit}). */
    public Builder audit(AuditPolicy value) {
      this.audit = value;
      return this;
    }

    public Builder operator(Operator value) {
      operators.add(value);
      return this;
    }

    public Builder gateway(GatewaySettings value) {
      this.gateway = value;
      return this;
    }

    public Builder listen(ListenAddress value) {
      this.listen = value;
      return this;
    }

    public Builder dataDir(Path value) {
      this.dataDir = value;
      return this;
    }

    public Builder store(String url) {
      this.store = url;
      return this;
    }

    /** Adds or replaces a class; the first call drops the seed defaults, as writing {@code request_classes} does. */
    public Builder requestClass(RequestClass value) {
      if (!classesReplaced) {
        requestClasses = new LinkedHashMap<>();
        classesReplaced = true;
      }
      requestClasses.put(value.name(), value);
      return this;
    }

    public Builder sharedScope(SharedScope value) {
      this.sharedScope = value;
      return this;
    }

    public Builder provider(Provider value) {
      providers.put(value.id(), value);
      return this;
    }

    public Builder agent(Agent value) {
      agents.add(value);
      return this;
    }

    public Builder retryAfter(RetryAfterPolicy value) {
      this.retryAfter = value;
      return this;
    }

    public Builder backoff(Backoff value) {
      this.backoff = value;
      return this;
    }

    /** The {@code escalation} block; default {@link EscalationSettings#DEFAULTS}. */
    public Builder escalation(EscalationSettings value) {
      this.escalation = Objects.requireNonNull(value, "escalation");
      return this;
    }

    public Policy build() {
      return new Policy(listen, dataDir, Optional.ofNullable(store), requestClasses, sharedScope, providers, agents, retryAfter, backoff, gateway,
          Optional.ofNullable(audit), operators, escalation);
    }
  }
}
