package dev.sluice.acceptance;

import static dev.sluice.acceptance.Harness.T0;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.core.Call;
import dev.sluice.core.engine.Outcome;
import dev.sluice.core.engine.OutcomeCode;
import dev.sluice.fake.Attempt;
import dev.sluice.fake.ConcurrencyLimit;
import dev.sluice.fake.FakeProvider;
import dev.sluice.fake.Quota;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * Many agents on one quota, on virtual time over real sockets. The fake provider is the judge: its
 * token bucket refuses anything over the quota and its concurrency limit refuses anything over
 * {@code max_concurrent_requests} in flight, both with 429; so zero 429s at the fake means neither
 * was ever exceeded. The sliding-window count is computed from the fake's own arrival log.
 */
class PublishedQuotaAtTheFakeProviderTest {

  /** Each task reads {@code reads} times, one after the other; all tasks run at once. */
  static List<Outcome> tasksReadingInSequence(Harness h, int tasks, int reads, Instant until) {
    List<Outcome> outcomes = Collections.synchronizedList(new ArrayList<>());
    List<CompletableFuture<Void>> done = new ArrayList<>();
    for (int t = 0; t < tasks; t++) {
      CompletableFuture<Void> d = new CompletableFuture<>();
      done.add(d);
      readNext(h, "task-" + t, reads, outcomes, d);
    }
    h.runUntil(until);
    assertThat(done).as("every task finished its reads").allSatisfy(d -> assertThat(d).isDone());
    return List.copyOf(outcomes);
  }

  private static void readNext(Harness h, String task, int left, List<Outcome> outcomes, CompletableFuture<Void> done) {
    if (left == 0) {
      done.complete(null);
      return;
    }
    h.sluice.submit(Call.get(Harness.PROVIDER, "/v1/invoices/inv_1", task)).whenComplete((o, e) -> {
      outcomes.add(o);
      readNext(h, task, left - 1, outcomes, done);
    });
  }

  /** The most arrivals in any window {@code [t, t + window)} of the fake's log. */
  static int maxInAnyWindow(List<Attempt> attempts, Duration window) {
    List<Instant> times = attempts.stream().map(Attempt::arrivedAt).sorted().toList();
    int max = 0;
    int j = 0;
    for (int i = 0; i < times.size(); i++) {
      while (!times.get(j).plus(window).isAfter(times.get(i))) {
        j++;
      }
      max = Math.max(max, i - j + 1);
    }
    return max;
  }

  @Test
  void fiftyTasksTimesFortyReadsStayUnderThePublishedRateAndTheConcurrencyLimitAndAllComplete() {
    int rate = 20;
    FakeProvider.Builder fake = FakeProvider.builder().quota(Quota.perSecond(rate, rate)).concurrency(ConcurrencyLimit.of(4).withStatus(429));
    try (Harness h = Harness.virtualTime(fake, """
        rate: {requests: 20, per_seconds: 1}
        shared_scope: {max_delayed_requests: 100, max_concurrent_requests: 4}
        routes:
          - {method: GET, path: "/v1/invoices/{id}", class: read}
        """)) {
      List<Outcome> outcomes = tasksReadingInSequence(h, 50, 40, T0.plusSeconds(300));

      assertThat(outcomes).hasSize(2000).allSatisfy(o -> {
        assertThat(o.outcome()).isEqualTo(OutcomeCode.SUCCEEDED);
        assertThat(o.attempts()).isEqualTo(1);
      });
      List<Attempt> seen = h.fake.attempts();
      assertThat(seen).hasSize(2000);
      assertThat(seen).filteredOn(a -> a.status() == 429).isEmpty();
      assertThat(seen).allSatisfy(a -> assertThat(a.result()).isEqualTo(Attempt.Result.ANSWERED));
      assertThat(maxInAnyWindow(seen, Duration.ofSeconds(1))).isLessThanOrEqualTo(rate);
      // Paced at the quota, not far below it: 2000 reads at 20/s take just under 100 s. The harness
      // steps virtual time while real sockets answer, which can add a few milliseconds per step
      // (101.045 s was seen once on a loaded machine): 2 % above the ideal still proves the point.
      Duration span = Duration.between(seen.get(0).arrivedAt(), seen.get(seen.size() - 1).arrivedAt());
      assertThat(span).isBetween(Duration.ofSeconds(99), Duration.ofSeconds(102));
      assertThat(h.transport.maxInFlight()).as("requests overlapped, so the fake's concurrency check was not vacuous").isBetween(2, 4);
    }
  }

  @Test
  void aQuotaLearnedFromRateLimitHeadersIsNeverExceededAndCostsNo429() {
    int rate = 10;
    FakeProvider.Builder fake = FakeProvider.builder().quota(Quota.perSecond(rate, rate)).concurrency(ConcurrencyLimit.of(4).withStatus(429));
    try (Harness h = Harness.virtualTime(fake, """
        shared_scope: {max_delayed_requests: 100, max_concurrent_requests: 4}
        routes:
          - {method: GET, path: "/v1/invoices/{id}", class: read}
        """)) {
      List<Outcome> outcomes = tasksReadingInSequence(h, 10, 20, T0.plusSeconds(120));

      assertThat(outcomes).hasSize(200).allSatisfy(o -> assertThat(o.outcome()).isEqualTo(OutcomeCode.SUCCEEDED));
      List<Attempt> seen = h.fake.attempts();
      assertThat(seen).hasSize(200);
      assertThat(seen).filteredOn(a -> a.status() == 429).isEmpty();
      assertThat(maxInAnyWindow(seen, Duration.ofSeconds(1))).isLessThanOrEqualTo(rate);
    }
  }
}
