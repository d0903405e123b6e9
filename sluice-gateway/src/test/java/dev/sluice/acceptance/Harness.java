package dev.sluice.acceptance;

import dev.sluice.core.Sluice;
import dev.sluice.core.engine.Scheduler;
import dev.sluice.core.engine.SystemScheduler;
import dev.sluice.core.engine.VirtualScheduler;
import dev.sluice.core.journal.Journal;
import dev.sluice.core.policy.Policy;
import dev.sluice.core.policy.PolicyLoader;
import dev.sluice.core.transport.CredentialHeader;
import dev.sluice.core.transport.JettyTransport;
import dev.sluice.core.transport.ProviderEndpoint;
import dev.sluice.core.transport.TransportSettings;
import dev.sluice.fake.FakeProvider;
import dev.sluice.fake.ManualClock;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;

/**
 * The fake provider and Sluice in one JVM over real sockets, on virtual time (the fake's {@link
 * ManualClock} and the engine's {@link VirtualScheduler} moved together) or on the wall clock. The
 * policy has one provider, {@code api}, on scope {@code account:acme}, whose credential is {@link
 * #SECRET}; the transport tags each attempt with {@code Sluice-Task} so the fake's log names the
 * task.
 */
final class Harness implements AutoCloseable {
  static final Instant T0 = Instant.parse("2026-03-01T09:00:00Z");
  static final String SECRET = "acceptance-secret-canary";
  static final String PROVIDER = "api";
  private static final Duration NETWORK = Duration.ofSeconds(20);

  final FakeProvider fake;
  final Sluice sluice;
  final TrackingTransport transport;
  private final ManualClock fakeClock;
  private final VirtualScheduler virtual;
  private final JettyTransport http;
  private final SystemScheduler system;

  private Harness(FakeProvider fake, ManualClock fakeClock, VirtualScheduler virtual, SystemScheduler system, String providerYaml) {
    this(fake, fakeClock, virtual, system, providerYaml, null);
  }

  private Harness(FakeProvider fake, ManualClock fakeClock, VirtualScheduler virtual, SystemScheduler system, String providerYaml,
      Journal journal) {
    this(fake, fakeClock, virtual, system, providerYaml, journal, b -> b);
  }

  private Harness(FakeProvider fake, ManualClock fakeClock, VirtualScheduler virtual, SystemScheduler system, String providerYaml,
      Journal journal, java.util.function.UnaryOperator<Sluice.Builder> extra) {
    this(fake, fakeClock, virtual, system, "", providerYaml, journal, extra);
  }

  private Harness(FakeProvider fake, ManualClock fakeClock, VirtualScheduler virtual, SystemScheduler system, String topYaml, String providerYaml,
      Journal journal, java.util.function.UnaryOperator<Sluice.Builder> extra) {
    this.fake = fake;
    this.fakeClock = fakeClock;
    this.virtual = virtual;
    this.system = system;
    Policy policy = PolicyLoader.parse(topYaml.stripIndent() + policyText(fake, providerYaml), "acceptance.yaml");
    ProviderEndpoint ep = ProviderEndpoint.of(fake.baseUri()).withCredential(new CredentialHeader("Authorization", "Bearer " + SECRET));
    ep = policy.provider(PROVIDER).orElseThrow().idempotencyHeader().map(ep::withIdempotencyHeader).orElse(ep);
    this.http = JettyTransport.start(TransportSettings.defaults().withTaskHeader("Sluice-Task"), Map.of(PROVIDER, ep));
    this.transport = new TrackingTransport(http);
    Scheduler scheduler = virtual != null ? virtual : system;
    Sluice.Builder b = Sluice.builder().policy(policy).scheduler(scheduler).transport(transport).random(42);
    if (journal != null) {
      b.journal(journal);
    }
    this.sluice = extra.apply(b).build();
  }

  /** The provider block under {@code providers.api}, after base_url, credential and scope. */
  static Policy policy(FakeProvider fake, String providerYaml) {
    return PolicyLoader.parse(policyText(fake, providerYaml), "acceptance.yaml");
  }

  private static String policyText(FakeProvider fake, String providerYaml) {
    String yaml = "providers:\n"
        + "  api:\n"
        + "    base_url: " + fake.baseUri() + "\n"
        + "    credential: {header: Authorization, format: \"Bearer {secret}\", secret_env: API_TOKEN}\n"
        + "    scope: account:acme\n"
        + providerYaml.stripIndent().lines().map(l -> "    " + l + "\n").reduce("", String::concat);
    return yaml;
  }

  /** Virtual time: the fake's clock and the engine's scheduler both start at {@link #T0}. */
  static Harness virtualTime(FakeProvider.Builder fake, String providerYaml) {
    ManualClock clock = ManualClock.at(T0);
    return new Harness(fake.clock(clock).start(), clock, new VirtualScheduler(T0), null, providerYaml);
  }

  /** Virtual time, every action journaled in {@code journal}, with more builder settings (e.g. an audit log). */
  static Harness virtualTime(FakeProvider.Builder fake, String providerYaml, Journal journal, java.util.function.UnaryOperator<Sluice.Builder> extra) {
    ManualClock clock = ManualClock.at(T0);
    return new Harness(fake.clock(clock).start(), clock, new VirtualScheduler(T0), null, providerYaml, journal, extra);
  }

  /** Virtual time, journaled, with top-level policy sections ({@code escalation: ...}) before the provider. */
  static Harness virtualTime(FakeProvider.Builder fake, String topYaml, String providerYaml, Journal journal,
      java.util.function.UnaryOperator<Sluice.Builder> extra) {
    ManualClock clock = ManualClock.at(T0);
    return new Harness(fake.clock(clock).start(), clock, new VirtualScheduler(T0), null, topYaml, providerYaml, journal, extra);
  }

  /** The wall clock for both. */
  static Harness wallClock(FakeProvider.Builder fake, String providerYaml) {
    return new Harness(fake.start(), null, null, new SystemScheduler(Clock.systemUTC()), providerYaml);
  }

  /** The wall clock for both, every action journaled in {@code journal} (not closed by the harness). */
  static Harness wallClock(FakeProvider.Builder fake, String providerYaml, Journal journal) {
    return new Harness(fake.start(), null, null, new SystemScheduler(Clock.systemUTC()), providerYaml, journal);
  }

  /** Now, on the engine's clock. */
  Instant now() {
    return virtual != null ? virtual.now() : Instant.now();
  }

  /** Waits until every attempt sent so far has been answered and processed. */
  void settle() {
    // A journaled attempt reaches the transport only after its start is committed: wait for the
    // journal too, until neither has anything on its way.
    do {
      transport.awaitIdle(NETWORK);
      sluice.journalFlushed().orTimeout(NETWORK.toSeconds(), java.util.concurrent.TimeUnit.SECONDS).join();
    } while (!transport.idle());
  }

  /**
   * Virtual time only: moves both clocks from one engine wake-up to the next until {@code limit},
   * letting every attempt sent at each instant complete (over the real socket) before moving on.
   */
  void runUntil(Instant limit) {
    if (virtual == null) {
      throw new IllegalStateException("runUntil is for virtual time");
    }
    while (true) {
      settle();
      Optional<Instant> next = virtual.nextDue();
      Instant to = next.isPresent() && !next.get().isAfter(limit) ? next.get() : limit;
      if (to.isAfter(fakeClock.instant())) {
        fakeClock.set(to);
      }
      virtual.advanceTo(to);
      settle();
      Optional<Instant> after = virtual.nextDue();
      if (to.equals(limit) && (after.isEmpty() || after.get().isAfter(limit))) {
        return;
      }
    }
  }

  @Override
  public void close() {
    sluice.close();
    http.close();
    fake.close();
    if (system != null) {
      system.close();
    }
  }
}
