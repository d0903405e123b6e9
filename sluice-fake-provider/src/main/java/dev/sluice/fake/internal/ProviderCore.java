package dev.sluice.fake.internal;

import dev.sluice.fake.FakeProviderConfig;
import java.time.Clock;

/**
 * The state of one running fake, shared by the request pipeline, the inspection API and the public
 * handle.
 */
public final class ProviderCore {

  final FakeProviderConfig config;
  final Clock clock;
  final Routes routes;
  final ScopeQuotas quotas;
  final AttemptLog log = new AttemptLog();
  final FaultBook faults;
  final IdempotencyStore idempotency = new IdempotencyStore();
  final ResourceStore store;
  final HoldGate gate = new HoldGate();
  final RateLimitHeaderWriter headerWriter;

  public ProviderCore(FakeProviderConfig config, Clock clock) {
    this.config = config;
    this.clock = clock;
    this.routes = new Routes(config.families().values());
    this.quotas = new ScopeQuotas(config.quota(), config.tokenQuota(), config.dailyQuota(),
        config.concurrency().map(c -> c.limit()).orElse(0));
    this.faults = new FaultBook(config.faults());
    this.store = new ResourceStore(config.families(), config.initialBalance(), clock.instant());
    this.headerWriter = RateLimitHeaderWriter.of(config.dialect());
  }

  /** Back to the starting state: no attempts, no records, full buckets, configured faults only, nobody held. */
  public void reset() {
    gate.releaseAll();
    quotas.clear();
    idempotency.clear();
    faults.reset();
    store.reset(clock.instant());
    log.clear();
  }

  public AttemptLog log() {
    return log;
  }

  public ResourceStore store() {
    return store;
  }

  public FaultBook faults() {
    return faults;
  }

  public HoldGate gate() {
    return gate;
  }

  public FakeProviderConfig config() {
    return config;
  }
}
