package dev.sluice.fake;

import dev.sluice.fake.internal.ConfigReader;
import java.nio.file.Path;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * Everything a fake provider is started with, immutable. {@link #defaults()} is the fake with no
 * configuration; {@link #load(Path)} reads a YAML file (see docs/FAKE_PROVIDER.md); {@link
 * FakeProvider.Builder} adjusts either.
 *
 * @param host the address to bind; default {@code 127.0.0.1}
 * @param port the port; default 0 (a free port) in the builder, 8099 from the CLI
 * @param inspect whether the inspection API under {@code /__fake} is on; default off
 * @param dialect the rate-limit header dialect; default {@link Dialect#IETF}
 * @param retryAfterFormat how {@code Retry-After} is written; default {@link RetryAfterFormat#SECONDS}
 * @param scopeBy how a request's scope is derived; default {@link ScopeBy#authorization()}
 * @param quota the default quota of every scope; default {@link Quota#DEFAULT} (10/s, burst 10)
 * @param tokenQuota an optional token quota per scope (each request costs {@code max(1,
 *     ceil(body bytes / 4))} tokens); default none
 * @param dailyQuota an optional daily quota per scope ({@code insufficient_quota}); default none
 * @param concurrency an optional limit of requests in flight per scope; default none
 * @param overQuota the answer to a request over quota; default {@link OverQuotaResponse#DEFAULT}
 * @param families the route families by name, in routing order; default {@link RouteFamily#defaults()}
 * @param faults fault rules active from the start (and after every reset); default none
 * @param initialBalance the balance at start and after every reset; default 1,000,000
 * @param acceptedCredentials when not empty, the only {@code Authorization} values accepted (others
 *     get 401); default empty: any or no credential is accepted
 */
public record FakeProviderConfig(
    String host,
    int port,
    boolean inspect,
    Dialect dialect,
    RetryAfterFormat retryAfterFormat,
    ScopeBy scopeBy,
    Quota quota,
    Optional<Quota> tokenQuota,
    Optional<DailyQuota> dailyQuota,
    Optional<ConcurrencyLimit> concurrency,
    OverQuotaResponse overQuota,
    Map<String, RouteFamily> families,
    List<FaultRule> faults,
    long initialBalance,
    Set<String> acceptedCredentials) {

  /** The balance the fake starts with unless told otherwise. */
  public static final long DEFAULT_BALANCE = 1_000_000L;

  public FakeProviderConfig {
    Objects.requireNonNull(host, "host");
    Objects.requireNonNull(dialect, "dialect");
    Objects.requireNonNull(retryAfterFormat, "retryAfterFormat");
    Objects.requireNonNull(scopeBy, "scopeBy");
    Objects.requireNonNull(quota, "quota");
    Objects.requireNonNull(tokenQuota, "tokenQuota");
    Objects.requireNonNull(dailyQuota, "dailyQuota");
    Objects.requireNonNull(concurrency, "concurrency");
    Objects.requireNonNull(overQuota, "overQuota");
    if (port < 0 || port > 65535) {
      throw new IllegalArgumentException("port must be 0-65535, got " + port);
    }
    families = Collections.unmodifiableMap(new LinkedHashMap<>(families));
    Set<String> paths = new HashSet<>();
    for (Map.Entry<String, RouteFamily> e : families.entrySet()) {
      if (!e.getKey().equals(e.getValue().name())) {
        throw new IllegalArgumentException("family '" + e.getValue().name() + "' is filed under '" + e.getKey() + "'");
      }
      if (!paths.add(e.getValue().path())) {
        throw new IllegalArgumentException("two families share the path " + e.getValue().path());
      }
    }
    faults = List.copyOf(faults);
    acceptedCredentials = Set.copyOf(acceptedCredentials);
  }

  /** The fake with no configuration. */
  public static FakeProviderConfig defaults() {
    return new FakeProviderConfig("127.0.0.1", 0, false, Dialect.IETF, RetryAfterFormat.SECONDS,
        ScopeBy.authorization(), Quota.DEFAULT, Optional.empty(), Optional.empty(), Optional.empty(),
        OverQuotaResponse.DEFAULT, RouteFamily.defaults(), List.of(), DEFAULT_BALANCE, Set.of());
  }

  /**
   * Reads a YAML config file on top of {@link #defaults()}. Unknown keys are refused.
   *
   * @throws FakeConfigException with one line naming the file, the key and what was expected
   */
  public static FakeProviderConfig load(Path file) {
    return ConfigReader.readFile(file);
  }

  /** Never shows the accepted credentials. */
  @Override
  public String toString() {
    return "FakeProviderConfig[host=" + host + ", port=" + port + ", inspect=" + inspect + ", dialect="
        + dialect.configName() + ", retryAfter=" + retryAfterFormat.configName() + ", scopeBy=" + scopeBy.configName()
        + ", quota=" + quota + ", tokenQuota=" + tokenQuota + ", dailyQuota=" + dailyQuota + ", concurrency="
        + concurrency + ", families=" + families.keySet() + ", faults=" + faults.size() + ", initialBalance="
        + initialBalance + ", acceptedCredentials=" + acceptedCredentials.size() + " (redacted)]";
  }
}
