package dev.sluice.core.retry;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.core.classify.AttemptResult;
import dev.sluice.core.classify.Classification;
import dev.sluice.core.classify.Classifier;
import dev.sluice.core.policy.QuotaExhaustedMatcher;
import dev.sluice.core.policy.QuotaReset;
import dev.sluice.core.classify.TransportFailure;
import dev.sluice.core.http.Headers;
import dev.sluice.core.retry.RetryDecision.Action;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.SplittableRandom;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import org.junit.jupiter.api.Test;

class RetryPlannerTest {
  static final Instant NOW = Instant.parse("2026-10-21T07:27:00Z");
  static final Set<Integer> READ_STATUSES = Set.of(408, 429, 500, 502, 503, 504);
  static final Set<Integer> WRITE_STATUSES = Set.of(408, 429, 502, 503, 504);

  private final RetryPlanner planner = new RetryPlanner(Backoff.SEED_DEFAULT);
  private final Classifier classifier = Classifier.standard();

  static RetryContext read(int attempt, double waitedSeconds) {
    return new RetryContext("read", 4, Duration.ofSeconds(90), READ_STATUSES, false, false, false, attempt,
        Duration.ofMillis((long) (waitedSeconds * 1000)), Optional.empty(), NOW);
  }

  static RetryContext idempotentWrite(int attempt, boolean keySent, boolean lookup) {
    return new RetryContext("idempotent_write", 3, Duration.ofSeconds(120), WRITE_STATUSES, true, keySent, lookup, attempt,
        Duration.ZERO, Optional.empty(), NOW);
  }

  static RetryContext uncertainWrite(boolean lookup) {
    return new RetryContext("uncertain_write", 1, Duration.ZERO, Set.of(), true, false, lookup, 1, Duration.ZERO, Optional.empty(), NOW);
  }

  private Classification status(int status) {
    return classifier.classify(new AttemptResult.Response(status, Headers.empty()));
  }

  private static Optional<ServerDelay> retryAfter(long seconds) {
    return Optional.of(new ServerDelay(Duration.ofSeconds(seconds), DelaySource.RETRY_AFTER, "Retry-After"));
  }

  @Test
  void firstRetryOfAReadDrawsFromZeroToTwoSeconds() {
    RetryDecision d = planner.decide(status(503), read(1, 0), Optional.empty(), new BackoffTest.FixedRandom(0.5));

    assertThat(d.action()).isEqualTo(Action.RETRY);
    assertThat(d.range()).contains(new DelayRange(Duration.ZERO, Duration.ofSeconds(2)));
    assertThat(d.delay()).contains(Duration.ofSeconds(1));
    assertThat(d.delaySource()).contains(DelaySource.BACKOFF);
    assertThat(d.dueAt()).contains(NOW.plusSeconds(1));
  }

  @Test
  void aLongerServerDelayWinsAndIsExact() {
    RetryDecision d = planner.decide(status(429), read(1, 0), retryAfter(10), new BackoffTest.FixedRandom(0.99));

    assertThat(d.range()).contains(new DelayRange(Duration.ofSeconds(10), Duration.ofSeconds(10)));
    assertThat(d.delay()).contains(Duration.ofSeconds(10));
    assertThat(d.delaySource()).contains(DelaySource.RETRY_AFTER);
  }

  @Test
  void aGitHubStyle403RateLimitIsRetriedLikeA429AfterItsDelay() {
    Classification limited = classifier.classify(new AttemptResult.Response(403, Headers.of("Retry-After", "30")));
    RetryDecision d = planner.decide(limited, read(1, 0), retryAfter(30), new BackoffTest.FixedRandom(0.5));

    assertThat(d.action()).isEqualTo(Action.RETRY);
    assertThat(d.delay()).contains(Duration.ofSeconds(30));
    assertThat(d.delaySource()).contains(DelaySource.RETRY_AFTER);
  }

  @Test
  void aRateLimited403IsNotRetriedWhenTheClassDoesNotRetry429() {
    Classification limited = classifier.classify(new AttemptResult.Response(403, Headers.of("x-ratelimit-remaining", "0")));
    RetryContext no429 = new RetryContext("read", 4, Duration.ofSeconds(90), Set.of(503), false, false, false, 1,
        Duration.ZERO, Optional.empty(), NOW);
    RetryDecision d = planner.decide(limited, no429, Optional.empty(), new BackoffTest.FixedRandom(0.5));

    assertThat(d.action()).isEqualTo(Action.DONE);
    assertThat(d.outcome()).contains("rate_limited");
    assertThat(d.reason()).contains("treated as 429");
  }

  @Test
  void aShorterServerDelayIsTheFloorOfTheJitterWindow() {
    // attempt 3: window min(60, 2^3) = 8 s; server says 2 s -> delay in [2, 8].
    RetryDecision low = planner.decide(status(429), read(3, 0), retryAfter(2), new BackoffTest.FixedRandom(0.1));
    RetryDecision high = planner.decide(status(429), read(3, 0), retryAfter(2), new BackoffTest.FixedRandom(0.75));

    assertThat(low.range()).contains(new DelayRange(Duration.ofSeconds(2), Duration.ofSeconds(8)));
    assertThat(low.delay()).contains(Duration.ofSeconds(2));
    assertThat(low.delaySource()).contains(DelaySource.RETRY_AFTER);
    assertThat(high.delay()).contains(Duration.ofSeconds(6));
    assertThat(high.delaySource()).contains(DelaySource.BACKOFF);
  }

  @Test
  void theLastAttemptEndsWithBudgetExhaustedAndTheCount() {
    RetryDecision d = planner.decide(status(503), read(4, 10), Optional.empty(), new SplittableRandom(1));

    assertThat(d.action()).isEqualTo(Action.DONE);
    assertThat(d.outcome()).contains("budget_exhausted");
    assertThat(d.reason()).contains("all 4 attempts");
  }

  @Test
  void aServerDelayBeyondTheWaitBudgetLeftIsTerminalWithTheNumbers() {
    RetryDecision d = planner.decide(status(429), read(2, 85), retryAfter(10), new SplittableRandom(1));

    assertThat(d.outcome()).contains("budget_exhausted");
    assertThat(d.reason()).contains("10 s").contains("5 s");
  }

  @Test
  void theJitterWindowIsClampedToTheWaitBudgetLeft() {
    // attempt 3 would allow [0, 8] but only 3 s of the 90 s are left.
    RetryDecision d = planner.decide(status(503), read(3, 87), Optional.empty(), new BackoffTest.FixedRandom(1.0));

    assertThat(d.range()).contains(new DelayRange(Duration.ZERO, Duration.ofSeconds(3)));
    assertThat(d.delay().orElseThrow()).isLessThanOrEqualTo(Duration.ofSeconds(3));
    assertThat(d.reason()).contains("clamped");
  }

  @Test
  void aUsedUpWaitBudgetNeverGivesAHotRetry() {
    RetryDecision d = planner.decide(status(503), read(2, 90), Optional.empty(), new SplittableRandom(1));
    assertThat(d.outcome()).contains("budget_exhausted");
  }

  @Test
  void theTaskDeadlineBindsWhenItIsSoonerThanTheClassBudget() {
    RetryContext ctx = new RetryContext("read", 4, Duration.ofSeconds(90), READ_STATUSES, false, false, false, 1,
        Duration.ZERO, Optional.of(NOW.plusSeconds(5)), NOW);

    RetryDecision d = planner.decide(status(429), ctx, retryAfter(10), new SplittableRandom(1));

    assertThat(d.outcome()).contains("deadline_exceeded");
    assertThat(d.reason()).contains("deadline");
  }

  @Test
  void clientErrorsAreNeverRepeated() {
    for (int s : List.of(400, 401, 403, 404, 422)) {
      RetryDecision d = planner.decide(status(s), read(1, 0), Optional.empty(), new SplittableRandom(1));
      assertThat(d.action()).as("status %d", s).isEqualTo(Action.DONE);
      assertThat(d.outcome()).contains("client_error");
    }
  }

  @Test
  void conflictIsTerminalAndSaysToLookUp() {
    RetryDecision d = planner.decide(status(409), idempotentWrite(1, true, true), Optional.empty(), new SplittableRandom(1));
    assertThat(d.outcome()).contains("conflict");
    assertThat(d.nextSafeAction()).contains("look up");
  }

  @Test
  void aStatusOutsideTheClassRetryStatusesIsTerminal() {
    // 500 is retryable for reads but not in idempotent_write's list.
    RetryDecision d = planner.decide(status(500), idempotentWrite(1, true, false), Optional.empty(), new SplittableRandom(1));
    assertThat(d.action()).isEqualTo(Action.DONE);
    assertThat(d.outcome()).contains("unavailable");
    assertThat(d.reason()).contains("not in class idempotent_write's retry_statuses");
  }

  @Test
  void anIdempotentWriteRetriesA503WithItsKey() {
    RetryDecision d = planner.decide(status(503), idempotentWrite(1, true, false), Optional.empty(), new SplittableRandom(1));
    assertThat(d.action()).isEqualTo(Action.RETRY);
  }

  @Test
  void anUnknownOutcomeWriteIsReconciledNeverResent() {
    Classification reset = classifier.classify(new AttemptResult.Failure(TransportFailure.RESET_AFTER_SEND));

    RetryDecision withKey = planner.decide(reset, idempotentWrite(1, true, true), Optional.empty(), new SplittableRandom(1));
    RetryDecision withLookupOnly = planner.decide(reset, uncertainWrite(true), Optional.empty(), new SplittableRandom(1));

    assertThat(withKey.action()).isEqualTo(Action.RECONCILE);
    assertThat(withKey.outcome()).contains("reconciliation_required");
    assertThat(withLookupOnly.action()).isEqualTo(Action.RECONCILE);
  }

  @Test
  void anUnknownOutcomeWriteWithNoKeyAndNoLookupEscalates() {
    Classification timeout = classifier.classify(new AttemptResult.Failure(TransportFailure.READ_TIMEOUT));

    RetryDecision d = planner.decide(timeout, uncertainWrite(false), Optional.empty(), new SplittableRandom(1));

    assertThat(d.action()).isEqualTo(Action.ESCALATE);
    assertThat(d.reason()).contains("no automated repeat");
  }

  @Test
  void aWriteThatMetA5xxWithoutAKeyIsReconciledNotRetried() {
    RetryContext ctx = new RetryContext("idempotent_write", 3, Duration.ofSeconds(120), WRITE_STATUSES, true, false, true, 1,
        Duration.ZERO, Optional.empty(), NOW);
    RetryDecision d = planner.decide(status(502), ctx, Optional.empty(), new SplittableRandom(1));
    assertThat(d.action()).isEqualTo(Action.RECONCILE);
  }

  @Test
  void anUnknownOutcomeReadIsRetriedLikeAnyTransportFailure() {
    Classification timeout = classifier.classify(new AttemptResult.Failure(TransportFailure.READ_TIMEOUT));
    RetryDecision d = planner.decide(timeout, read(1, 0), Optional.empty(), new SplittableRandom(1));
    assertThat(d.action()).isEqualTo(Action.RETRY);
  }

  @Test
  void nothingSentMayBeResentEvenForAWriteWhenTheClassAllowsRetries() {
    Classification refused = classifier.classify(new AttemptResult.Failure(TransportFailure.CONNECT_FAILED));
    assertThat(planner.decide(refused, idempotentWrite(1, false, false), Optional.empty(), new SplittableRandom(1)).action())
        .isEqualTo(Action.RETRY);
    assertThat(planner.decide(refused, uncertainWrite(false), Optional.empty(), new SplittableRandom(1)).outcome())
        .contains("reset_before_send");
  }

  @Test
  void quotaExhaustionWaitsForItsResetNotABackoff() {
    Classifier withRule = new Classifier(List.of(QuotaExhaustedMatcher.of(429, "/error/code", "insufficient_quota", QuotaReset.DAILY)));
    Classification c = withRule.classify(new AttemptResult.Response(429, Headers.empty(), "{\"error\":{\"code\":\"insufficient_quota\"}}"));

    RetryDecision d = planner.decide(c, read(1, 0), retryAfter(5), new SplittableRandom(1));

    assertThat(d.outcome()).contains("quota_exhausted");
    assertThat(d.nextSafeAction()).contains("daily");
  }

  @Property(tries = 1000)
  void aRetryNeverPassesTheWaitBudgetOrTheWindow(
      @ForAll @IntRange(min = 1, max = 10) int attempt,
      @ForAll @LongRange(min = 0, max = 120_000) long waitedMs,
      @ForAll @LongRange(min = 0, max = 200_000) long serverMs,
      @ForAll boolean withServer,
      @ForAll @IntRange(min = 0, max = 5) int statusPick,
      @ForAll long seedValue) {
    int status = List.of(408, 429, 500, 502, 503, 504).get(statusPick);
    Duration maxWait = Duration.ofSeconds(90);
    RetryContext ctx = new RetryContext("read", 10, maxWait, READ_STATUSES, false, false, false, attempt,
        Duration.ofMillis(Math.min(waitedMs, 90_000)), Optional.empty(), NOW);
    Optional<ServerDelay> server = withServer
        ? Optional.of(new ServerDelay(Duration.ofMillis(serverMs), DelaySource.RETRY_AFTER, "Retry-After")) : Optional.empty();

    RetryDecision d = planner.decide(status(status), ctx, server, new SplittableRandom(seedValue));

    if (d.action() == Action.RETRY) {
      Duration delay = d.delay().orElseThrow();
      assertThat(ctx.waited().plus(delay)).isLessThanOrEqualTo(maxWait);
      assertThat(d.range().orElseThrow().contains(delay)).isTrue();
      server.ifPresent(s -> assertThat(delay).isGreaterThanOrEqualTo(s.delay()));
      Duration window = Backoff.SEED_DEFAULT.window(attempt);
      assertThat(delay).isLessThanOrEqualTo(server.map(s -> s.delay().compareTo(window) > 0 ? s.delay() : window).orElse(window));
      assertThat(delay).isPositive();
    } else {
      assertThat(d.outcome()).isPresent();
    }
  }
}
