package dev.sluice.core.engine;

import static dev.sluice.core.engine.EngineFixture.SCOPE;
import static dev.sluice.core.engine.EngineFixture.read;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** Identical reads of immutable routes share one attempt; nothing else is ever coalesced. */
class CoalescingTest {

  @Test
  void identicalImmutableReadsInFlightShareOneSendAndItsResult() {
    EngineFixture fx = new EngineFixture(Duration.ofMillis(100), r -> RecordingTransport.ok(), ScopeSettings.of(SCOPE, 4, 25));
    List<CompletableFuture<Outcome>> all = IntStream.range(0, 5).mapToObj(i -> fx.engine.submit(read("t" + i).asImmutable())).toList();
    fx.clock.advance(Duration.ofSeconds(1));
    assertThat(fx.transport.calls()).hasSize(1);
    assertThat(all).allSatisfy(f -> {
      Outcome o = f.join();
      assertThat(o.outcome()).isEqualTo(OutcomeCode.SUCCEEDED);
      assertThat(o.response()).isPresent();
    });
    assertThat(all.stream().map(f -> f.join().taskId())).containsExactly("t0", "t1", "t2", "t3", "t4");
    assertThat(all.stream().filter(f -> f.join().coalesced()).count()).isEqualTo(4);
  }

  @Test
  void readsOfRoutesNotMarkedImmutableAreNeverCoalesced() {
    EngineFixture fx = new EngineFixture(Duration.ofMillis(100), r -> RecordingTransport.ok(), ScopeSettings.of(SCOPE, 4, 25));
    List<CompletableFuture<Outcome>> all = IntStream.range(0, 5).mapToObj(i -> fx.engine.submit(read("t" + i))).toList();
    fx.clock.advance(Duration.ofSeconds(1));
    assertThat(fx.transport.calls()).hasSize(5);
    assertThat(all).allSatisfy(f -> assertThat(f.join().coalesced()).isFalse());
  }

  @Test
  void differentTargetsOfAnImmutableRouteAreSeparateSends() {
    EngineFixture fx = new EngineFixture(Duration.ofMillis(100), r -> RecordingTransport.ok(), ScopeSettings.of(SCOPE, 4, 25));
    fx.engine.submit(ActionRequest.read("a", Priority.INTERACTIVE, SCOPE, "/v1/invoices/{id}", "/v1/invoices/1").asImmutable());
    fx.engine.submit(ActionRequest.read("b", Priority.INTERACTIVE, SCOPE, "/v1/invoices/{id}", "/v1/invoices/2").asImmutable());
    fx.engine.submit(ActionRequest.read("c", Priority.INTERACTIVE, SCOPE, "/v1/invoices/{id}", "/v1/invoices/1?expand=lines").asImmutable());
    fx.clock.advance(Duration.ofSeconds(1));
    assertThat(fx.transport.calls()).hasSize(3);
  }

  @Test
  void aReadArrivingAfterTheSharedOneFinishedIsSentAgain() {
    EngineFixture fx = new EngineFixture(Duration.ofMillis(100), r -> RecordingTransport.ok(), ScopeSettings.of(SCOPE, 4, 25));
    fx.engine.submit(read("a").asImmutable());
    fx.clock.advance(Duration.ofSeconds(1));
    fx.engine.submit(read("b").asImmutable());
    fx.clock.advance(Duration.ofSeconds(1));
    assertThat(fx.transport.calls()).hasSize(2);
  }

  @Test
  void cancellingOneCallerLeavesTheSharedAttemptToTheOthers() {
    EngineFixture fx = new EngineFixture(Duration.ofMillis(100), r -> RecordingTransport.ok(), ScopeSettings.of(SCOPE, 4, 25));
    CompletableFuture<Outcome> leader = fx.engine.submit(read("leader").asImmutable());
    CompletableFuture<Outcome> follower = fx.engine.submit(read("follower").asImmutable());
    fx.engine.cancel("leader");
    fx.clock.advance(Duration.ofSeconds(1));
    assertThat(leader.join().outcome()).isEqualTo(OutcomeCode.CANCELLED);
    assertThat(follower.join().outcome()).isEqualTo(OutcomeCode.SUCCEEDED);
    assertThat(fx.transport.calls()).hasSize(1);
  }
}
