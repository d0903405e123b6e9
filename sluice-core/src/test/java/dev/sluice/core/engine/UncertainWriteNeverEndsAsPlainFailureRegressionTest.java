package dev.sluice.core.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.core.classify.AttemptResult;
import dev.sluice.core.classify.TransportFailure;
import dev.sluice.core.http.Headers;
import dev.sluice.core.policy.RequestClass;
import dev.sluice.core.scope.ScopeId;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Regression (review of the durable-actions merge): a write whose first send timed out was resent
 * with its key, and when the resends then failed (503, budget) or the task was cancelled, the
 * agent heard {@code unavailable}/{@code budget_exhausted} or "cancelled, nothing more will be
 * sent" — an invitation to send again with a new key while the first send may have taken effect.
 * Until an answer proves the outcome, such a write ends in {@code reconciliation_required}.
 */
class UncertainWriteNeverEndsAsPlainFailureRegressionTest {
  static final ScopeId SCOPE = new ScopeId("p", "s");

  static ActionRequest keyedWrite(String task) {
    return new ActionRequest(task, Priority.INTERACTIVE, SCOPE, RequestClass.SEED_IDEMPOTENT_WRITE, "POST", "/v1/transfers", "/v1/transfers",
        Headers.empty(), "{}".getBytes(), false, Optional.of("k1"), false);
  }

  @Test
  void aResendWithTheKeyThatKeepsFailingEndsInReconciliationNotAFailure() {
    AtomicInteger n = new AtomicInteger();
    // First send: reset after the bytes left (unknown). Every resend: 503.
    EngineFixture fx = new EngineFixture(Duration.ofMillis(10), r -> n.getAndIncrement() == 0
        ? new AttemptResult.Failure(TransportFailure.RESET_AFTER_SEND)
        : new AttemptResult.Response(503, Headers.empty()), ScopeSettings.of(SCOPE, 2, 25));

    CompletableFuture<Outcome> f = fx.engine.submit(keyedWrite("t"));
    fx.clock.advance(Duration.ofMinutes(5));

    assertThat(f.join().outcome()).isEqualTo(OutcomeCode.RECONCILIATION_REQUIRED);
    assertThat(fx.transport.calls()).extracting(c -> c.request().idempotencyKey().orElseThrow()).containsOnly("k1");
  }

  @Test
  void cancellingATaskWhoseWriteMayHaveActedSaysSoInsteadOfCancelled() {
    // The send hangs (never answers): the write is on the wire when the task is cancelled.
    EngineFixture fx = new EngineFixture(Duration.ofHours(1), r -> new AttemptResult.Response(201, Headers.empty()), ScopeSettings.of(SCOPE, 2, 25));
    CompletableFuture<Outcome> write = fx.engine.submit(keyedWrite("t"));
    fx.clock.advance(Duration.ofMillis(1));
    assertThat(fx.transport.calls()).hasSize(1);

    fx.engine.cancel("t");

    Outcome o = write.join();
    assertThat(o.outcome()).isEqualTo(OutcomeCode.RECONCILIATION_REQUIRED);
    assertThat(o.requestSent()).isTrue();
    assertThat(o.nextSafeAction()).contains("look the action up");
    assertThat(List.of(o.reason())).allSatisfy(r -> assertThat(r).contains("may have acted"));
  }

  @Test
  void cancellingAQueuedWriteThatNeverLeftIsAPlainCancel() {
    EngineFixture fx = new EngineFixture(Duration.ofMillis(10), r -> new AttemptResult.Response(201, Headers.empty()), ScopeSettings.of(SCOPE, 1, 25));
    fx.engine.submit(keyedWrite("first"));
    CompletableFuture<Outcome> queued = fx.engine.submit(keyedWrite("second"));

    fx.engine.cancel("second");

    assertThat(queued.join().outcome()).isEqualTo(OutcomeCode.CANCELLED);
    assertThat(queued.join().requestSent()).isFalse();
  }
}
