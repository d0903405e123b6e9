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
 * <p>A third, diagnostic variant ({@link Mode#RATE_NO_HEADERS}) keeps the published rate but pins
 * {@code rate_limit_headers} to a dialect this provider does not send ({@code github}), so the
 * engine paces by its configured bucket alone while still honouring {@code Retry-After}; only with
 * {@code --diagnostic}. It showed, before decision 0008, that the engine's bucket alone sends into
 * the provider's empty bucket once the burst is spent (a few 429s per run, each holding the scope
 * a whole {@code Retry-After} second), so reading {@code r=0;t=1} as "pace" needs the headers: the
 * difference between the two rate variants is what the headers are worth.
 *
 * <p>Each worker is one task ({@code w-<worker>}); a write carries the action's stable key as
 * {@link Call#idempotencyKey()}.
 */
final class SluiceEmbeddedStrategy implements Strategy {
  /** How the policy tells Sluice about the quota. */
  enum Mode {
    /** The published quota in {@code rate}, headers read as well (what the docs recommend). */
    RATE,
    /** No {@code rate}: learnt from the IETF headers. */
    HEADERS,
    /** The published quota in {@code rate}; rate-limit headers not read (diagnostic). */
    RATE_NO_HEADERS
  }

  private final Mode mode;

  SluiceEmbeddedStrategy(Mode mode) {
    this.mode = mode;
  }

  @Override
  public String name() {
    return switch (mode) {
      case RATE -> "sluice (rate)";
      case HEADERS -> "sluice (headers)";
      case RATE_NO_HEADERS -> "sluice (rate, no hdr)";
    };
  }

  /** The sluice.yaml of the run. */
  String policyYaml(Setup s) {
    String rate = mode != Mode.HEADERS ? "    rate: {requests: %d, per_seconds: 1, burst: %d}\n".formatted(s.rate(), s.burst()) : "";
    String dialect = mode == Mode.RATE_NO_HEADERS ? "github" : "ietf";
    return """
        providers:
          fake:
            base_url: %s
        %s    shared_scope: {max_delayed_requests: 100000, max_concurrent_requests: 2}
            idempotency_header: Idempotency-Key
            rate_limit_headers: %s
            routes:
              - {method: GET, path: "/v1/invoices/{id}", class: read}
              - method: POST
                path: /v1/transfers
                class: idempotent_write
                lookup: {method: GET, path: "/v1/transfers?idempotency_key={idempotency_key}"}
        """.formatted(s.base().toString().replaceAll("/$", ""), rate, dialect);
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
