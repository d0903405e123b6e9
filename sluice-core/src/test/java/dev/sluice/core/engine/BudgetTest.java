package dev.sluice.core.engine;

import java.util.List;
import dev.sluice.core.policy.RequestClass;
import static dev.sluice.core.engine.EngineFixture.SCOPE;
import static dev.sluice.core.engine.EngineFixture.T0;
import static dev.sluice.core.engine.EngineFixture.read;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.core.classify.AttemptResult;
import dev.sluice.core.classify.TransportFailure;
import dev.sluice.core.http.Headers;
import java.time.Duration;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/** Attempts and waited time are both counted, per action, per task and against the deadline. */
class BudgetTest {

  @Test
  void everyAttemptCountsAndTheClassMaxAttemptsEndsTheAction() {
    EngineFixture fx = new EngineFixture(Duration.ofMillis(50), r -> RecordingTransport.status(503), ScopeSettings.of(SCOPE, 2, 25));
    CompletableFuture<Outcome> f = fx.engine.submit(read("t"));
    fx.clock.advance(Duration.ofMinutes(5));
    Outcome o = f.join();
    assertThat(o.outcome()).isEqualTo(OutcomeCode.BUDGET_EXHAUSTED);
    assertThat(o.attempts()).isEqualTo(4);
    assertThat(fx.transport.calls()).hasSize(4);
    assertThat(o.lastStatus()).hasValue(503);
    assertThat(o.waited()).isLessThanOrEqualTo(Duration.ofSeconds(90));
  }

  @Test
  void aServerDelayLongerThanTheWaitBudgetEndsTheActionAtOnce() {
    EngineFixture fx = new EngineFixture(Duration.ofMillis(50), r -> RecordingTransport.status(429, "Retry-After", "100"), ScopeSettings.of(SCOPE, 2, 25));
    CompletableFuture<Outcome> f = fx.engine.submit(read("t"));
    fx.clock.advance(Duration.ofMillis(50));
    Outcome o = f.join();
    assertThat(o.outcome()).isEqualTo(OutcomeCode.BUDGET_EXHAUSTED);
    assertThat(o.attempts()).isEqualTo(1);
    assertThat(o.nextAllowedAt()).contains(T0.plusMillis(50).plusSeconds(100));
  }

  @Test
  void timeWaitingInTheQueueCountsAgainstMaxWait() {
    RequestClass quick = new RequestClass("quick", 3, Duration.ofSeconds(5), List.of(503));
    EngineFixture fx = new EngineFixture(Duration.ofSeconds(60), r -> RecordingTransport.ok(), ScopeSettings.of(SCOPE, 1, 25));
    fx.engine.submit(read("hog"));
    CompletableFuture<Outcome> waiting = fx.engine.submit(withClass(read("w"), quick));
    fx.clock.advance(Duration.ofSeconds(5).minusNanos(1));
    assertThat(waiting).isNotDone();
    fx.clock.advance(Duration.ofNanos(1));
    Outcome o = waiting.join();
    assertThat(o.outcome()).isEqualTo(OutcomeCode.BUDGET_EXHAUSTED);
    assertThat(o.requestSent()).isFalse();
    assertThat(o.waited()).isEqualTo(Duration.ofSeconds(5));
    assertThat(o.reason()).contains("max_wait").contains("concurrency slots");
    fx.clock.advance(Duration.ofMinutes(2));
    assertThat(fx.transport.calls()).extracting(c -> c.request().taskId()).containsExactly("hog");
  }

  @Test
  void theTaskDeadlineEndsAWaitingActionWithDeadlineExceeded() {
    EngineFixture fx = new EngineFixture(Duration.ofSeconds(60), r -> RecordingTransport.ok(), ScopeSettings.of(SCOPE, 1, 25));
    fx.engine.setTaskBudget("late", TaskBudget.deadline(T0.plusSeconds(3)));
    fx.engine.submit(read("hog"));
    CompletableFuture<Outcome> waiting = fx.engine.submit(read("late"));
    fx.clock.advance(Duration.ofSeconds(3));
    assertThat(waiting.join().outcome()).isEqualTo(OutcomeCode.DEADLINE_EXCEEDED);
    assertThat(waiting.join().finishedAt()).isEqualTo(T0.plusSeconds(3));
  }

  @Test
  void theTaskAttemptBudgetCountsAttemptsAcrossItsActions() {
    EngineFixture fx = new EngineFixture(Duration.ofMillis(10), r -> RecordingTransport.status(503), ScopeSettings.of(SCOPE, 2, 25));
    fx.engine.setTaskBudget("t", new TaskBudget(Optional.empty(), OptionalInt.of(3)));
    CompletableFuture<Outcome> a = fx.engine.submit(read("t"));
    fx.clock.advance(Duration.ofMinutes(5));
    assertThat(a.join().outcome()).isEqualTo(OutcomeCode.BUDGET_EXHAUSTED);
    assertThat(a.join().attempts()).isEqualTo(3);
    CompletableFuture<Outcome> b = fx.engine.submit(read("t"));
    fx.clock.advance(Duration.ofSeconds(1));
    assertThat(b.join().outcome()).isEqualTo(OutcomeCode.BUDGET_EXHAUSTED);
    assertThat(b.join().attempts()).isZero();
    assertThat(fx.transport.calls()).hasSize(3);
    // Both paths name the task's budget in the words an escalation is labelled by (task_budget_exhausted).
    assertThat(a.join().reason()).contains(Engine.TASK_ATTEMPT_BUDGET_SPENT);
    assertThat(b.join().reason()).contains(Engine.TASK_ATTEMPT_BUDGET_SPENT);
  }

  @Test
  void aWriteWhoseOutcomeIsUnknownIsNeverResentBlindlyOnlyWithItsKeyWithinMaxAttempts() {
    EngineFixture fx = new EngineFixture(Duration.ofMillis(10), r -> new AttemptResult.Failure(TransportFailure.RESET_AFTER_SEND),
        ScopeSettings.of(SCOPE, 2, 25));
    ActionRequest blind = new ActionRequest("t", Priority.INTERACTIVE, SCOPE, RequestClass.SEED_UNCERTAIN_WRITE, "POST", "/records", "/records",
        Headers.empty(), "{}".getBytes(), false, Optional.empty(), false);
    ActionRequest lookup = new ActionRequest("u", Priority.INTERACTIVE, SCOPE, RequestClass.SEED_IDEMPOTENT_WRITE, "POST", "/v1/transfers", "/v1/transfers",
        Headers.empty(), "{}".getBytes(), false, Optional.of("k1"), true);
    CompletableFuture<Outcome> a = fx.engine.submit(blind);
    CompletableFuture<Outcome> b = fx.engine.submit(lookup);
    fx.clock.advance(Duration.ofMinutes(5));
    // No key, no look-up: one send, then a person decides.
    assertThat(a.join().outcome()).isEqualTo(OutcomeCode.RECONCILIATION_REQUIRED);
    assertThat(a.join().attempts()).isEqualTo(1);
    assertThat(a.join().requestSent()).isTrue();
    assertThat(a.join().responseReceived()).isFalse();
    // A key the provider deduplicates, but no look-up plan: resent with that same key, within
    // the class's max_attempts (3), then stopped at reconciliation_required.
    assertThat(b.join().outcome()).isEqualTo(OutcomeCode.RECONCILIATION_REQUIRED);
    assertThat(b.join().attempts()).isEqualTo(3);
    assertThat(fx.transport.calls()).hasSize(4);
    assertThat(fx.transport.calls()).filteredOn(c -> c.request().taskId().equals("u")).extracting(c -> c.request().idempotencyKey().orElseThrow())
        .containsOnly("k1");
  }

  private static ActionRequest withClass(ActionRequest r, RequestClass c) {
    return new ActionRequest(r.taskId(), r.priority(), r.scope(), c, r.method(), r.routeTemplate(), r.target(), r.headers(), r.body(), r.immutable(),
        r.idempotencyKey(), r.lookupAvailable());
  }
}
