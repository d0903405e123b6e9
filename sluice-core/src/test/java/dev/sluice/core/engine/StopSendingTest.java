package dev.sluice.core.engine;

import static dev.sluice.core.engine.EngineFixture.SCOPE;
import static dev.sluice.core.engine.EngineFixture.read;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A graceful stop: once sending stops, the attempt in flight runs to its end and is handled, a
 * retry it calls for is scheduled but never sent, and what was queued never leaves.
 */
class StopSendingTest {

  @Test
  void theAttemptInFlightFinishesAndNothingElseLeaves() throws Exception {
    EngineFixture fx = new EngineFixture(Duration.ofSeconds(30), r -> RecordingTransport.ok(), ScopeSettings.of(SCOPE, 1, 25));
    CompletableFuture<Outcome> inFlight = fx.engine.submit(read("a"));
    CompletableFuture<Outcome> queued = fx.engine.submit(read("b"));
    assertThat(fx.engine.inFlight(SCOPE)).isEqualTo(1);

    CompletableFuture<Void> idle = fx.engine.stopSending();
    assertThat(idle).as("an attempt is still in flight").isNotDone();
    fx.clock.advance(Duration.ofSeconds(30));
    assertThat(inFlight.join().outcome()).isEqualTo(OutcomeCode.SUCCEEDED);
    idle.get(10, TimeUnit.SECONDS);

    fx.clock.advance(Duration.ofMinutes(5));
    assertThat(queued).as("left queued, for the journal's next start").isNotDone();
    assertThat(fx.engine.queue(SCOPE)).extracting(QueuedRequest::taskId).containsExactly("b");
    assertThat(fx.transport.calls()).extracting(c -> c.request().taskId()).containsExactly("a");
  }

  @Test
  void aRetryCalledForDuringTheStopIsScheduledButNotSent() throws Exception {
    EngineFixture fx = new EngineFixture(Duration.ofSeconds(1), r -> RecordingTransport.status(429, "Retry-After", "2"),
        ScopeSettings.of(SCOPE, 1, 25));
    CompletableFuture<Outcome> a = fx.engine.submit(read("a"));
    CompletableFuture<Void> idle = fx.engine.stopSending();
    fx.clock.advance(Duration.ofSeconds(1)); // the 429 arrives: a retry is due at +2 s
    idle.get(10, TimeUnit.SECONDS);
    fx.clock.advance(Duration.ofMinutes(1));
    assertThat(a).isNotDone();
    assertThat(fx.transport.calls()).hasSize(1);
  }

  @Test
  void withNothingInFlightTheStopIsIdleAtOnce() throws Exception {
    EngineFixture fx = new EngineFixture(Duration.ofSeconds(1), r -> RecordingTransport.ok(), ScopeSettings.of(SCOPE, 1, 25));
    fx.engine.stopSending().get(10, TimeUnit.SECONDS);
    CompletableFuture<Outcome> late = fx.engine.submit(read("late"));
    fx.clock.advance(Duration.ofMinutes(1));
    assertThat(late).isNotDone();
    assertThat(fx.transport.calls()).isEmpty();
  }
}
