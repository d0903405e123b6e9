package dev.sluice.bench.quota;

import dev.sluice.core.Call;
import dev.sluice.core.Sluice;
import dev.sluice.core.policy.PolicyLoader;

/**
 * Sluice embedded in the workers' JVM through its facade ({@link Sluice#submit}), with the default
 * HTTP transport and the wall clock. The policy is what a user would write in {@code sluice.yaml}
 * for this provider: the seed's request classes, {@code idempotency_header: Idempotency-Key}, the
 * transfers route as an {@code idempotent_write} with a look-up by key, and either the published
 * quota in {@code rate} ({@code withRate}) or no {@code rate} at all, so pacing comes from the
 * provider's IETF rate-limit headers and the concurrency limit alone.
 *
 * <p>One deviation from the seed's defaults, for the benchmark's sake: {@code
 * max_delayed_requests} is raised from 25 to 100,000, because with K up to 100 workers more than 25
 * actions legitimately wait their turn at once, and the seed's bound would refuse them
 * (backpressure, by design) instead of queueing them. Concurrency stays at the seed's 2.
 *
 * <p>Each worker is one task ({@code w-<worker>}); a write carries the action's stable key as
 * {@link Call#idempotencyKey()}.
 */
final class SluiceEmbeddedStrategy implements Strategy {
  private final boolean withRate;

  SluiceEmbeddedStrategy(boolean withRate) {
    this.withRate = withRate;
  }

  @Override
  public String name() {
    return withRate ? "sluice (rate)" : "sluice (headers)";
  }

  /** The sluice.yaml of the run. */
  String policyYaml(Setup s) {
    String rate = withRate ? "    rate: {requests: %d, per_seconds: 1, burst: %d}\n".formatted(s.rate(), s.burst()) : "";
    return """
        providers:
          fake:
            base_url: %s
        %s    shared_scope: {max_delayed_requests: 100000, max_concurrent_requests: 2}
            idempotency_header: Idempotency-Key
            rate_limit_headers: ietf
            routes:
              - {method: GET, path: "/v1/invoices/{id}", class: read}
              - method: POST
                path: /v1/transfers
                class: idempotent_write
                lookup: {method: GET, path: "/v1/transfers?idempotency_key={idempotency_key}"}
        """.formatted(s.base().toString().replaceAll("/$", ""), rate);
  }

  @Override
  public Client open(Setup setup) {
    Sluice sluice = Sluice.builder().policy(PolicyLoader.parse(policyYaml(setup), "bench-quota.yaml")).build();
    return new Client() {
      @Override
      public boolean perform(Action a) {
        Call.Builder b = Call.builder("fake", a.method(), a.target()).task("w-" + Thread.currentThread().getName());
        if (a.body().length > 0) {
          b.body(a.body()).header("Content-Type", "application/json");
        }
        a.idempotencyKey().ifPresent(b::idempotencyKey);
        return sluice.submit(b.build()).join().succeeded();
      }

      @Override
      public void close() {
        sluice.close();
      }
    };
  }
}
