package dev.sluice.cli;

import dev.sluice.core.Call;
import dev.sluice.core.Sluice;
import dev.sluice.core.engine.Outcome;
import dev.sluice.core.engine.QueuedRequest;
import dev.sluice.core.policy.Policy;
import dev.sluice.core.policy.PolicyLoader;
import dev.sluice.core.scope.ScopeRecord;
import dev.sluice.core.transport.TransportSettings;
import dev.sluice.fake.Attempt;
import dev.sluice.fake.FakeProvider;
import dev.sluice.fake.Fault;
import dev.sluice.fake.FaultRule;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The seed's steps 1–3 played on the wall clock: a fake provider whose first invoice read gets
 * {@code 429 Retry-After: N}, and Sluice (the library facade, real HTTP transport) in front of it,
 * with three agent tasks reading the same invoice on one account scope.
 */
final class DemoScenario {
  static final String PROVIDER = "demo-api";
  static final String SCOPE = "account:demo";
  static final String TARGET = "/v1/invoices/inv_1";
  static final List<String> TASKS = List.of("task-1", "task-2", "task-3");
  private static final Duration PATIENCE = Duration.ofSeconds(30);

  /** What happened, for the timeline and the JSON. */
  record Report(
      Instant start, int retryAfterSeconds, Policy policy, List<Attempt> attempts, ScopeRecord hold, List<QueuedRequest> waiting,
      List<Outcome> outcomes) {

    /** When the scope's hold ended (the 429's {@code next_allowed_at}). */
    Instant heldUntil() {
      return hold.nextAllowedAt().orElseThrow();
    }
  }

  private DemoScenario() {}

  static Policy policy(FakeProvider fake) {
    return PolicyLoader.parse("""
        providers:
          %s:
            base_url: %s
            credential: {header: Authorization, format: "Bearer {secret}", secret_env: DEMO_API_TOKEN}
            scope: %s
            shared_scope: {max_delayed_requests: 25, max_concurrent_requests: 2}
            routes:
              - {method: GET, path: "/v1/invoices/{id}", class: read}
        """.formatted(PROVIDER, fake.baseUri(), SCOPE), "demo.yaml");
  }

  /**
   * Plays the sequence and returns what the provider received and what the agents were told.
   *
   * @throws IllegalStateException when something does not finish within 30 s
   */
  static Report play(int retryAfterSeconds) throws InterruptedException {
    FaultRule first429 = FaultRule.of(Fault.rateLimited(Duration.ofSeconds(retryAfterSeconds))).path("/v1/invoices/{id}");
    try (FakeProvider fake = FakeProvider.builder().fault(first429).start()) {
      Policy policy = policy(fake);
      try (Sluice sluice = Sluice.builder().policy(policy)
          .secrets(name -> name.equals("DEMO_API_TOKEN") ? Optional.of("demo-secret") : Optional.empty())
          .transportSettings(TransportSettings.defaults().withTaskHeader("Sluice-Task"))
          .build()) {
        Instant start = Clock.systemUTC().instant();
        // Step 1: three agent tasks issue the same safe read on one account scope.
        List<CompletableFuture<Outcome>> futures = new ArrayList<>();
        for (String task : TASKS) {
          futures.add(sluice.submit(Call.get(PROVIDER, TARGET, task)));
        }
        // Step 2: once the 429 is in, everything on the scope waits; look at the queue then.
        ScopeRecord hold = awaitHold(sluice);
        List<QueuedRequest> waiting = awaitQueue(sluice);
        // Step 3: everyone gets an answer.
        List<Outcome> outcomes = new ArrayList<>();
        for (CompletableFuture<Outcome> f : futures) {
          try {
            outcomes.add(f.get(PATIENCE.toSeconds() + retryAfterSeconds, TimeUnit.SECONDS));
          } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("an agent got no outcome in time (" + e + ")", e);
          }
        }
        return new Report(start, retryAfterSeconds, policy, fake.attempts(), hold, waiting, outcomes);
      }
    }
  }

  private static ScopeRecord awaitHold(Sluice sluice) throws InterruptedException {
    Instant end = Clock.systemUTC().instant().plus(PATIENCE);
    while (Clock.systemUTC().instant().isBefore(end)) {
      ScopeRecord r = sluice.scopes().get(0);
      if (r.nextAllowedAt().isPresent()) {
        return r;
      }
      Thread.sleep(2); // a demo watching a live process, not a test: polling is fine here
    }
    throw new IllegalStateException("the provider's 429 did not arrive within " + PATIENCE.toSeconds() + " s");
  }

  private static List<QueuedRequest> awaitQueue(Sluice sluice) throws InterruptedException {
    Instant end = Clock.systemUTC().instant().plusSeconds(5);
    List<QueuedRequest> q = sluice.queue(PROVIDER);
    while (q.size() < TASKS.size() && Clock.systemUTC().instant().isBefore(end)) {
      Thread.sleep(1);
      q = sluice.queue(PROVIDER);
    }
    return q;
  }
}
