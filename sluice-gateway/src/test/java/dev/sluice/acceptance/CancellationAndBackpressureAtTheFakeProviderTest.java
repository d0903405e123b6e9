package dev.sluice.acceptance;

import static dev.sluice.acceptance.Harness.T0;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.core.Call;
import dev.sluice.core.engine.Outcome;
import dev.sluice.core.engine.OutcomeCode;
import dev.sluice.core.engine.QueuedRequest;
import dev.sluice.fake.Attempt;
import dev.sluice.fake.FakeProvider;
import dev.sluice.fake.Fault;
import dev.sluice.fake.FaultRule;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * What must never reach the provider, checked at the fake after the time it would have arrived:
 * a cancelled task's delayed requests, and requests refused because the scope's queue was full.
 */
class CancellationAndBackpressureAtTheFakeProviderTest {
  static FakeProvider.Builder first429(int seconds) {
    return FakeProvider.builder().fault(FaultRule.of(Fault.rateLimited(Duration.ofSeconds(seconds))).path("/v1/invoices/{id}"));
  }

  static String scope(int maxDelayed) {
    return """
        shared_scope: {max_delayed_requests: %d, max_concurrent_requests: 2}
        routes:
          - {method: GET, path: "/v1/invoices/{id}", class: read}
        """.formatted(maxDelayed);
  }

  static CompletableFuture<Outcome> read(Harness h, String task, String invoice) {
    return h.sluice.submit(Call.get(Harness.PROVIDER, "/v1/invoices/" + invoice, task));
  }

  @Test
  void aCancelledTasksDelayedRequestsNeverArriveEvenAfterTheirDueTime() {
    try (Harness h = Harness.virtualTime(first429(10), scope(25))) {
      CompletableFuture<Outcome> holder = read(h, "holder", "inv_1");
      h.settle(); // 429 Retry-After: 10: the scope is held, everything else waits in the queue
      List<CompletableFuture<Outcome>> doomed = List.of(read(h, "doomed", "inv_1"), read(h, "doomed", "inv_2"), read(h, "doomed", "inv_3"));
      CompletableFuture<Outcome> kept = read(h, "kept", "inv_2");
      Instant latestDue = h.sluice.queue(Harness.PROVIDER).stream().map(QueuedRequest::dueAt).max(Instant::compareTo).orElseThrow();
      assertThat(h.sluice.queue(Harness.PROVIDER)).hasSize(5);

      assertThat(h.sluice.cancel("doomed")).isEqualTo(3);
      assertThat(doomed).allSatisfy(f -> {
        assertThat(f.join().outcome()).isEqualTo(OutcomeCode.CANCELLED);
        assertThat(f.join().requestSent()).isFalse();
      });

      h.runUntil(latestDue.plusSeconds(30));
      assertThat(holder.join().outcome()).isEqualTo(OutcomeCode.SUCCEEDED);
      assertThat(kept.join().outcome()).isEqualTo(OutcomeCode.SUCCEEDED);
      assertThat(h.fake.attempts()).extracting(a -> a.task().orElseThrow()).containsExactlyInAnyOrder("holder", "holder", "kept");
      assertThat(h.fake.attempts()).noneMatch(a -> a.task().orElse("").equals("doomed"));
    }
  }

  @Test
  void aFullDelayedQueueRefusesNewWorkAtOnceWithScopeBackpressureAndItNeverArrives() {
    try (Harness h = Harness.virtualTime(first429(5), scope(2))) {
      read(h, "holder", "inv_1");
      h.settle(); // held for 5 s; the holder's own retry is the first of 2 waiting places
      CompletableFuture<Outcome> waits = read(h, "waits", "inv_2");
      CompletableFuture<Outcome> refused = read(h, "refused", "inv_3");

      assertThat(refused).isCompleted();
      Outcome o = refused.join();
      assertThat(o.outcome()).isEqualTo(OutcomeCode.SCOPE_BACKPRESSURE);
      assertThat(o.requestSent()).isFalse();
      assertThat(o.attempts()).isZero();
      assertThat(o.reason()).contains("max_delayed_requests");
      assertThat(o.nextAllowedAt()).contains(T0.plusSeconds(5));

      h.runUntil(T0.plusSeconds(60));
      assertThat(waits.join().outcome()).isEqualTo(OutcomeCode.SUCCEEDED);
      assertThat(h.fake.attempts()).extracting(Attempt::task).noneMatch(t -> t.orElse("").equals("refused"));
      assertThat(h.fake.attempts()).hasSize(3);
    }
  }
}
