package dev.sluice.fake;

import dev.sluice.fake.internal.FakeHandler;
import dev.sluice.fake.internal.ProviderCore;
import java.net.URI;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.VirtualThreads;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A running fake provider: a real HTTP/1.1 server on a real socket (Jetty 12, handlers on virtual
 * threads) that enforces quotas, writes rate-limit headers, honours idempotency keys, misbehaves on
 * cue and logs every attempt it receives.
 *
 * <pre>{@code
 * try (FakeProvider fake = FakeProvider.builder().clock(clock).dialect(Dialect.OPENAI).start()) {
 *   URI base = fake.baseUri();                 // http://127.0.0.1:<free port>
 *   ... drive the code under test against base ...
 *   assertThat(fake.attempts()).hasSize(3);     // what actually arrived
 * }
 * }</pre>
 *
 * <p>With no configuration (see {@link FakeProviderConfig#defaults()}) it listens on a free port of
 * 127.0.0.1, serves {@code /records}, {@code /v1/transfers}, {@code /v1/invoices}, {@code
 * /v1/balance} and {@code /v1/operations/{id}} (see {@link RouteFamily}), allows 10 requests per
 * second with a burst of 10 per credential, writes IETF {@code RateLimit} headers and {@code
 * Retry-After} in seconds, and keeps the inspection API off. Time comes from the wall clock unless
 * {@link Builder#clock} says otherwise. Thread-safe.
 */
public final class FakeProvider implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(FakeProvider.class);

  private final ProviderCore core;
  private final Server server;
  private final URI baseUri;
  private final CountDownLatch closed = new CountDownLatch(1);

  private FakeProvider(ProviderCore core, Server server, URI baseUri) {
    this.core = core;
    this.server = server;
    this.baseUri = baseUri;
  }

  /** A builder starting from {@link FakeProviderConfig#defaults()} and the wall clock. */
  public static Builder builder() {
    return new Builder();
  }

  /** Starts a fake with the defaults on a free port. */
  public static FakeProvider startDefault() {
    return builder().start();
  }

  /** Where it listens, e.g. {@code http://127.0.0.1:41234} (no trailing slash). */
  public URI baseUri() {
    return baseUri;
  }

  /** The port it listens on. */
  public int port() {
    return baseUri.getPort();
  }

  /** The configuration it runs with. */
  public FakeProviderConfig config() {
    return core.config();
  }

  /** Every attempt received since start or the last reset, in arrival order (a snapshot). */
  public List<Attempt> attempts() {
    return core.log().snapshot();
  }

  /** Every record created since start or the last reset (deleted ones included), in creation order. */
  public List<StoredRecord> records() {
    return core.store().records();
  }

  /** The records of one family, in creation order. */
  public List<StoredRecord> records(String family) {
    return records().stream().filter(r -> r.family().equals(family)).toList();
  }

  /** Every write performed since start or the last reset, in order. */
  public List<Operation> operations() {
    return core.store().operations();
  }

  /** The current balance of {@code /v1/balance}. */
  public long balance() {
    return core.store().balance();
  }

  /** Adds a fault rule at run time (gone after {@link #reset()}). */
  public FakeProvider addFault(FaultRule rule) {
    core.faults().add(Objects.requireNonNull(rule, "rule"));
    return this;
  }

  /** Removes every fault rule, configured ones included, until the next {@link #reset()}. */
  public void clearFaults() {
    core.faults().clear();
  }

  /**
   * Back to the starting state: attempts, records, operations, idempotency keys and buckets are
   * forgotten, the balance and seeded invoices restored, run-time fault rules removed and
   * configured ones re-armed, held requests released. The clock is left alone.
   */
  public void reset() {
    core.reset();
  }

  /** Waits until at least {@code n} requests are held by a {@link Fault#hold()}; false on timeout. */
  public boolean awaitHeld(int n, Duration timeout) throws InterruptedException {
    return core.gate().awaitHeld(n, timeout);
  }

  /** Releases every request held now; returns how many. */
  public int releaseHeld() {
    return core.gate().releaseAll();
  }

  /** Blocks until {@link #close()} is called (the CLI runs until Ctrl-C this way). */
  public void awaitClosed() throws InterruptedException {
    closed.await();
  }

  /** Stops the server; held requests are released first. Idempotent. */
  @Override
  public void close() {
    core.gate().close();
    try {
      server.stop();
    } catch (Exception e) {
      LOG.warn("fake provider at {} did not stop cleanly: {}", baseUri, e.toString());
    } finally {
      closed.countDown();
    }
  }

  @Override
  public String toString() {
    return "FakeProvider[" + baseUri + "]";
  }

  /**
   * Configures and starts a {@link FakeProvider}. Starts from {@link FakeProviderConfig#defaults()}
   * (free port, wall clock); {@link #config} replaces everything, the other methods adjust one
   * setting. Not thread-safe.
   */
  public static final class Builder {
    private String host;
    private int port;
    private boolean inspect;
    private Dialect dialect;
    private RetryAfterFormat retryAfterFormat;
    private ScopeBy scopeBy;
    private Quota quota;
    private Optional<Quota> tokenQuota;
    private Optional<DailyQuota> dailyQuota;
    private Optional<ConcurrencyLimit> concurrency;
    private OverQuotaResponse overQuota;
    private Map<String, RouteFamily> families;
    private List<FaultRule> faults;
    private long initialBalance;
    private Set<String> acceptedCredentials;
    private Clock clock = Clock.systemUTC();

    private Builder() {
      config(FakeProviderConfig.defaults());
    }

    /** Replaces every setting (not the clock) with those of {@code c}. */
    public Builder config(FakeProviderConfig c) {
      host = c.host();
      port = c.port();
      inspect = c.inspect();
      dialect = c.dialect();
      retryAfterFormat = c.retryAfterFormat();
      scopeBy = c.scopeBy();
      quota = c.quota();
      tokenQuota = c.tokenQuota();
      dailyQuota = c.dailyQuota();
      concurrency = c.concurrency();
      overQuota = c.overQuota();
      families = new LinkedHashMap<>(c.families());
      faults = new ArrayList<>(c.faults());
      initialBalance = c.initialBalance();
      acceptedCredentials = new HashSet<>(c.acceptedCredentials());
      return this;
    }

    /** Replaces every setting with those of a YAML file ({@link FakeProviderConfig#load}). */
    public Builder configFile(Path file) {
      return config(FakeProviderConfig.load(file));
    }

    /** The address to bind; default {@code 127.0.0.1}. */
    public Builder host(String h) {
      host = Objects.requireNonNull(h, "host");
      return this;
    }

    /** The port; default 0, a free port. */
    public Builder port(int p) {
      port = p;
      return this;
    }

    /** The fake's time source; default the UTC wall clock. Use a {@link ManualClock} in tests. */
    public Builder clock(Clock c) {
      clock = Objects.requireNonNull(c, "clock");
      return this;
    }

    /** Turns the inspection API under {@code /__fake} on or off; default off. */
    public Builder inspect(boolean on) {
      inspect = on;
      return this;
    }

    /** The rate-limit header dialect; default {@link Dialect#IETF}. */
    public Builder dialect(Dialect d) {
      dialect = Objects.requireNonNull(d, "dialect");
      return this;
    }

    /** How {@code Retry-After} is written; default {@link RetryAfterFormat#SECONDS}. */
    public Builder retryAfterFormat(RetryAfterFormat f) {
      retryAfterFormat = Objects.requireNonNull(f, "format");
      return this;
    }

    /** How scopes are derived; default {@link ScopeBy#authorization()}. */
    public Builder scopeBy(ScopeBy s) {
      scopeBy = Objects.requireNonNull(s, "scopeBy");
      return this;
    }

    /** The default quota of every scope; default {@link Quota#DEFAULT}. */
    public Builder quota(Quota q) {
      quota = Objects.requireNonNull(q, "quota");
      return this;
    }

    /** Gives one family its own quota (its own bucket per scope). */
    public Builder quota(String family, Quota q) {
      return updateFamily(family, f -> f.withQuota(q));
    }

    /** Switches {@code Idempotency-Key} support of one family on or off; default on. */
    public Builder idempotency(String family, boolean on) {
      return updateFamily(family, f -> f.withIdempotency(on));
    }

    /** Adds a family, or replaces the one with the same name. */
    public Builder family(RouteFamily f) {
      families.put(f.name(), f);
      return this;
    }

    private Builder updateFamily(String name, java.util.function.UnaryOperator<RouteFamily> change) {
      RouteFamily f = families.get(name);
      if (f == null) {
        throw new IllegalArgumentException("no family '" + name + "'; families: " + families.keySet());
      }
      families.put(name, change.apply(f));
      return this;
    }

    /** A token quota per scope (requests cost {@code max(1, ceil(body bytes / 4))} tokens); default none. */
    public Builder tokenQuota(Quota q) {
      tokenQuota = Optional.of(q);
      return this;
    }

    /** A daily quota per scope ({@code insufficient_quota} once spent); default none. */
    public Builder dailyQuota(DailyQuota q) {
      dailyQuota = Optional.of(q);
      return this;
    }

    /** A limit of requests in flight per scope; default none. */
    public Builder concurrency(ConcurrencyLimit c) {
      concurrency = Optional.of(c);
      return this;
    }

    /** The answer over quota; default {@link OverQuotaResponse#DEFAULT}. */
    public Builder overQuota(OverQuotaResponse o) {
      overQuota = Objects.requireNonNull(o, "overQuota");
      return this;
    }

    /** Adds a fault rule that is active from the start and re-armed on every reset. */
    public Builder fault(FaultRule rule) {
      faults.add(Objects.requireNonNull(rule, "rule"));
      return this;
    }

    /** The balance at start and after each reset; default {@link FakeProviderConfig#DEFAULT_BALANCE}. */
    public Builder initialBalance(long b) {
      initialBalance = b;
      return this;
    }

    /** Only these {@code Authorization} values are accepted (others get 401); default: anything. */
    public Builder acceptCredentials(String... values) {
      acceptedCredentials = new HashSet<>(Arrays.asList(values));
      return this;
    }

    /** The configuration as built so far. */
    public FakeProviderConfig build() {
      return new FakeProviderConfig(host, port, inspect, dialect, retryAfterFormat, scopeBy, quota, tokenQuota,
          dailyQuota, concurrency, overQuota, families, faults, initialBalance, acceptedCredentials);
    }

    /** Starts the server and returns once it accepts connections. */
    public FakeProvider start() {
      FakeProviderConfig config = build();
      ProviderCore core = new ProviderCore(config, clock);
      QueuedThreadPool pool = new QueuedThreadPool();
      pool.setName("sluice-fake");
      pool.setVirtualThreadsExecutor(VirtualThreads.getNamedVirtualThreadsExecutor("sluice-fake-vt"));
      Server server = new Server(pool);
      HttpConfiguration http = new HttpConfiguration();
      // The fake writes Date from its own clock, so virtual time stays consistent across headers.
      http.setSendDateHeader(false);
      http.setSendServerVersion(false);
      http.setSendXPoweredBy(false);
      ServerConnector connector = new ServerConnector(server, new HttpConnectionFactory(http));
      connector.setHost(config.host());
      connector.setPort(config.port());
      connector.setIdleTimeout(30_000);
      server.addConnector(connector);
      server.setHandler(new FakeHandler(core));
      server.setStopTimeout(0); // no graceful drain: tests start and stop many fakes
      try {
        server.start();
      } catch (Exception e) {
        try {
          server.stop();
        } catch (Exception ignored) {
          // already failing; the start error is the one to report
        }
        throw new IllegalStateException("fake provider could not listen on " + config.host() + ":" + config.port()
            + " (" + e.getMessage() + ")", e);
      }
      String host = config.host().contains(":") ? "[" + config.host() + "]" : config.host();
      URI base = URI.create("http://" + host + ":" + connector.getLocalPort());
      LOG.info("fake provider listening on {} (inspection API {})", base, config.inspect() ? "on" : "off");
      return new FakeProvider(core, server, base);
    }
  }
}
