package dev.sluice.acceptance;

import static dev.sluice.acceptance.Harness.T0;
import static dev.sluice.acceptance.PublishedQuotaAtTheFakeProviderTest.maxInAnyWindow;
import static dev.sluice.acceptance.PublishedQuotaAtTheFakeProviderTest.tasksReadingInSequence;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.core.engine.Outcome;
import dev.sluice.core.engine.OutcomeCode;
import dev.sluice.fake.Attempt;
import dev.sluice.fake.FakeProvider;
import dev.sluice.fake.Quota;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Regression, found by {@code bench/run quota}: a token bucket of R = 50/s with a burst of 10 answers
 * {@code RateLimit: "default";r=0;t=1} as soon as its burst is spent ({@code t} is the time until
 * it is full, in whole seconds), while its next unit is 20 ms away. The engine held the whole scope
 * until {@code t} every 10 requests, so 20 agents got about 10 requests a second through a quota of
 * 50; and the fake published its burst as the quota ({@code q=10;w=1}), so a quota learnt from the
 * headers paced at 10/s too. Virtual time, real sockets; everything counted in the fake's log.
 */
class SpentBurstPacesInsteadOfHoldingRegressionTest {

  static final int RATE = 50;
  static final int BURST = 10;
  static final int TASKS = 20;
  static final int READS = 25;
  static final int N = TASKS * READS;

  /** The ideal: N arrivals at R per second, the first B of them back to back. */
  static final Duration IDEAL = Duration.ofMillis((N - BURST) * 1000L / RATE);

  @Test
  void withTheConfiguredRateTheScopeRunsAtTheQuotaWithNo429() {
    FakeProvider.Builder fake = FakeProvider.builder().quota(Quota.perSecond(RATE, BURST));
    try (Harness h = Harness.virtualTime(fake, """
        rate: {requests: 50, per_seconds: 1, burst: 10}
        shared_scope: {max_delayed_requests: 1000, max_concurrent_requests: 2}
        routes:
          - {method: GET, path: "/v1/invoices/{id}", class: read}
        """)) {
      List<Outcome> outcomes = tasksReadingInSequence(h, TASKS, READS, T0.plusSeconds(300));

      assertThat(outcomes).hasSize(N).allSatisfy(o -> assertThat(o.outcome()).isEqualTo(OutcomeCode.SUCCEEDED));
      List<Attempt> seen = h.fake.attempts();
      assertThat(seen).hasSize(N);
      assertThat(seen).filteredOn(a -> a.status() == 429).isEmpty();
      // The burst was used: at least B - 1 arrived back to back (the B-th may wait one interval when
      // two answers of the same instant are read in the other order: the pacer's model errs towards
      // waiting), so the fake's bucket ran down to r=0 or r=1 with t=1.
      assertThat(seen.get(BURST - 2).arrivedAt()).isEqualTo(seen.get(0).arrivedAt());
      assertThat(maxInAnyWindow(seen, Duration.ofSeconds(1))).isLessThanOrEqualTo(RATE + BURST);
      Duration span = Duration.between(seen.get(0).arrivedAt(), seen.get(seen.size() - 1).arrivedAt());
      // Before the fix: about N / B = 50 s. Now the ideal 9.8 s, within 5 % (the target).
      assertThat(span).isBetween(IDEAL, Duration.ofMillis(IDEAL.toMillis() * 105 / 100));
    }
  }

  @Test
  void withTheQuotaLearntFromTheHeadersTheScopeRunsAtThePublishedRate() {
    FakeProvider.Builder fake = FakeProvider.builder().quota(Quota.perSecond(RATE, BURST));
    try (Harness h = Harness.virtualTime(fake, """
        shared_scope: {max_delayed_requests: 1000, max_concurrent_requests: 2}
        routes:
          - {method: GET, path: "/v1/invoices/{id}", class: read}
        """)) {
      List<Outcome> outcomes = tasksReadingInSequence(h, TASKS, READS, T0.plusSeconds(300));

      assertThat(outcomes).hasSize(N).allSatisfy(o -> assertThat(o.outcome()).isEqualTo(OutcomeCode.SUCCEEDED));
      List<Attempt> seen = h.fake.attempts();
      assertThat(seen).hasSize(N);
      assertThat(seen).filteredOn(a -> a.status() == 429).isEmpty();
      Duration span = Duration.between(seen.get(0).arrivedAt(), seen.get(seen.size() - 1).arrivedAt());
      // A learnt quota paces evenly (burst 1) at q/w = 50/s: (N - 1) / 50 s; before the fix 5 times that.
      Duration even = Duration.ofMillis((N - 1) * 1000L / RATE);
      assertThat(span).isBetween(Duration.ofMillis(even.toMillis() * 95 / 100), Duration.ofMillis(even.toMillis() * 105 / 100));
    }
  }
}
