package dev.sluice.core.engine;

import static dev.sluice.core.engine.EngineFixture.SCOPE;
import static dev.sluice.core.engine.EngineFixture.read;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** A cancelled task's waiting requests never wake, its slots free, and it gets {@code cancelled}. */
class CancellationTest {

  @Test
  void delayedRetriesOfACancelledTaskNeverReachTheProviderEvenAfterTheirDueTime() {
    AtomicInteger n = new AtomicInteger();
    EngineFixture fx = new EngineFixture(Duration.ofMillis(20),
        r -> n.incrementAndGet() == 1 ? RecordingTransport.status(429, "Retry-After", "10") : RecordingTransport.ok(), ScopeSettings.of(SCOPE, 2, 25));
    CompletableFuture<Outcome> doomed = fx.engine.submit(read("doomed"));
    CompletableFuture<Outcome> queuedToo = fx.engine.submit(read("doomed"));
    CompletableFuture<Outcome> other = fx.engine.submit(read("other"));
    fx.clock.advance(Duration.ofMillis(20)); // the 429: everything now waits for +10 s
    assertThat(fx.engine.cancel("doomed")).isEqualTo(2);
    assertThat(doomed.join().outcome()).isEqualTo(OutcomeCode.CANCELLED);
    assertThat(doomed.join().attempts()).isEqualTo(1);
    assertThat(queuedToo.join().outcome()).isEqualTo(OutcomeCode.CANCELLED);
    assertThat(queuedToo.join().requestSent()).isFalse();
    assertThat(fx.engine.queue(SCOPE)).extracting(QueuedRequest::taskId).containsExactly("other");

    fx.clock.advance(Duration.ofMinutes(5));
    assertThat(fx.transport.calls()).extracting(c -> c.request().taskId()).containsExactly("doomed", "other");
    assertThat(other.join().outcome()).isEqualTo(OutcomeCode.SUCCEEDED);
    assertThat(fx.engine.submit(read("doomed")).join().outcome()).as("a cancelled task stays cancelled").isEqualTo(OutcomeCode.CANCELLED);
    assertThat(fx.transport.calls()).hasSize(2);
  }

  @Test
  void cancellingAnInFlightAttemptFreesItsSlotForOthers() {
    EngineFixture fx = new EngineFixture(Duration.ofSeconds(30), r -> RecordingTransport.ok(), ScopeSettings.of(SCOPE, 1, 25));
    CompletableFuture<Outcome> slow = fx.engine.submit(read("slow"));
    CompletableFuture<Outcome> next = fx.engine.submit(read("next"));
    assertThat(fx.engine.inFlight(SCOPE)).isEqualTo(1);
    fx.engine.cancel("slow");
    Outcome o = slow.join();
    assertThat(o.outcome()).isEqualTo(OutcomeCode.CANCELLED);
    assertThat(o.requestSent()).as("the bytes had left").isTrue();
    assertThat(o.responseReceived()).isFalse();
    assertThat(fx.transport.calls()).extracting(c -> c.request().taskId()).containsExactly("slow", "next");
    fx.clock.advance(Duration.ofSeconds(30));
    assertThat(next.join().outcome()).isEqualTo(OutcomeCode.SUCCEEDED);
  }
}
