package dev.sluice.acceptance;

import static dev.sluice.acceptance.Harness.T0;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.core.Call;
import dev.sluice.core.engine.Outcome;
import dev.sluice.core.engine.OutcomeCode;
import dev.sluice.core.scope.ScopeRecord;
import dev.sluice.fake.Attempt;
import dev.sluice.fake.FakeProvider;
import dev.sluice.fake.Fault;
import dev.sluice.fake.FaultRule;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The seed's steps 1–3, counted at the fake provider over real sockets: three tasks on one account
 * scope issue the same safe read; the first gets {@code 429 Retry-After}; nothing else reaches the
 * provider on that scope until the delay has passed, not the other two tasks either; then all three
 * succeed, at different times.
 */
class SeedSequenceAtTheFakeProviderTest {
  static final String READ_ROUTE = """
      shared_scope: {max_delayed_requests: 25, max_concurrent_requests: 2}
      routes:
        - {method: GET, path: "/v1/invoices/{id}", class: read}
      """;

  static FakeProvider.Builder fakeAnswering429(Duration retryAfter) {
    return FakeProvider.builder().fault(FaultRule.of(Fault.rateLimited(retryAfter)).path("/v1/invoices/{id}"));
  }

  static List<CompletableFuture<Outcome>> threeTasksReadTheSameInvoice(Harness h) {
    return List.of("task-1", "task-2", "task-3").stream()
        .map(t -> h.sluice.submit(Call.get(Harness.PROVIDER, "/v1/invoices/inv_1", t)))
        .toList();
  }

  @Test
  void onVirtualTimeOne429HoldsTheWholeScopeForTenSecondsThenAllThreeSucceedAtDistinctTimes() {
    try (Harness h = Harness.virtualTime(fakeAnswering429(Duration.ofSeconds(10)), READ_ROUTE)) {
      // Step 1: three tasks, one scope, the same safe read.
      List<CompletableFuture<Outcome>> outcomes = threeTasksReadTheSameInvoice(h);
      h.settle();

      // Step 2: the first request got 429 Retry-After: 10 ...
      assertThat(h.fake.attempts()).singleElement().satisfies(a -> {
        assertThat(a.status()).isEqualTo(429);
        assertThat(a.arrivedAt()).isEqualTo(T0);
        assertThat(a.task()).hasValue("task-1");
      });
      ScopeRecord scope = h.sluice.scopes().get(0);
      assertThat(scope.nextAllowedAt()).contains(T0.plusSeconds(10));
      assertThat(scope.source()).isEqualTo("HTTP 429 Retry-After");
      // ... and nothing else reaches the provider until the 10 s have passed, not the other two tasks either.
      h.runUntil(T0.plusSeconds(10).minusMillis(1));
      assertThat(h.fake.attempts()).hasSize(1);
      assertThat(outcomes).noneSatisfy(f -> assertThat(f).isDone());

      // Step 3: after the delay all three succeed, and not as one burst.
      h.runUntil(T0.plusSeconds(60));
      assertThat(outcomes).allSatisfy(f -> assertThat(f.join().outcome()).isEqualTo(OutcomeCode.SUCCEEDED));
      List<Attempt> after = h.fake.attempts().subList(1, h.fake.attempts().size());
      assertThat(after).hasSize(3).allSatisfy(a -> {
        assertThat(a.status()).isEqualTo(200);
        assertThat(a.arrivedAt()).isAfterOrEqualTo(T0.plusSeconds(10));
      });
      assertThat(after).extracting(a -> a.task().orElseThrow()).containsExactlyInAnyOrder("task-1", "task-2", "task-3");
      assertThat(after).extracting(Attempt::arrivedAt).doesNotHaveDuplicates();
      // What the agents were told matches what the provider saw.
      assertThat(outcomes.stream().map(CompletableFuture::join).mapToInt(Outcome::attempts).sum()).isEqualTo(h.fake.attempts().size());
      assertThat(outcomes.get(0).join().attempts()).isEqualTo(2);
      assertThat(outcomes).allSatisfy(f -> assertThat(f.join().waited()).isGreaterThanOrEqualTo(Duration.ofSeconds(10)));
    }
  }

  @Test
  void onTheWallClockWithRetryAfterOneSecondTheScopeWaitsAndTheRetriesAreSpread() throws Exception {
    try (Harness h = Harness.wallClock(fakeAnswering429(Duration.ofSeconds(1)), READ_ROUTE)) {
      List<CompletableFuture<Outcome>> outcomes = threeTasksReadTheSameInvoice(h);
      CompletableFuture.allOf(outcomes.toArray(CompletableFuture[]::new)).get(30, TimeUnit.SECONDS);

      assertThat(outcomes).allSatisfy(f -> assertThat(f.join().outcome()).isEqualTo(OutcomeCode.SUCCEEDED));
      List<Attempt> attempts = h.fake.attempts();
      assertThat(attempts).hasSize(4);
      Attempt first = attempts.get(0);
      assertThat(first.status()).isEqualTo(429);
      Instant heldUntil = first.arrivedAt().plusSeconds(1);
      assertThat(attempts.subList(1, 4)).allSatisfy(a -> {
        assertThat(a.status()).isEqualTo(200);
        assertThat(a.arrivedAt()).isAfterOrEqualTo(heldUntil);
      });
      assertThat(attempts.subList(1, 4)).extracting(Attempt::arrivedAt).doesNotHaveDuplicates();
    }
  }
}
