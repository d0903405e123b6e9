package dev.sluice.core.engine;

import static dev.sluice.core.engine.EngineFixture.SCOPE;
import static dev.sluice.core.engine.EngineFixture.T0;
import static dev.sluice.core.engine.EngineFixture.read;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/** The dispatcher's gates: concurrency, pacing, the interactive reserve, priority, backpressure. */
class DispatcherGatesTest {

  static int maxInWindow(List<Instant> sends, Duration window) {
    List<Instant> s = new ArrayList<>(sends);
    s.sort(null);
    int best = 0;
    int j = 0;
    for (int i = 0; i < s.size(); i++) {
      while (!s.get(j).plus(window).isAfter(s.get(i))) {
        j++;
      }
      best = Math.max(best, i - j + 1); // sends in [s_i - window, s_i], half-open at the left
    }
    return best;
  }

  @Nested
  class Concurrency {
    @Test
    void neverMoreThanMaxConcurrentInFlight() {
      EngineFixture fx = new EngineFixture(Duration.ofMillis(300), r -> RecordingTransport.ok(), ScopeSettings.of(SCOPE, 3, 1000));
      List<CompletableFuture<Outcome>> all = new ArrayList<>();
      for (int i = 0; i < 40; i++) {
        all.add(fx.engine.submit(read("t" + i)));
      }
      fx.clock.advance(Duration.ofMinutes(1));
      assertThat(all).allSatisfy(f -> assertThat(f.join().outcome()).isEqualTo(OutcomeCode.SUCCEEDED));
      assertThat(fx.transport.maxInFlight()).isEqualTo(3);
      assertThat(fx.transport.calls()).allSatisfy(c -> assertThat(c.inFlightAfterSend()).isLessThanOrEqualTo(3));
    }

    @Test
    void aHeldRequestShowsItsDueTimeInTheQueue() {
      EngineFixture fx = new EngineFixture(Duration.ofSeconds(1), r -> RecordingTransport.ok(), ScopeSettings.of(SCOPE, 1, 10));
      fx.engine.submit(read("a"));
      fx.engine.submit(read("b"));
      assertThat(fx.engine.queue(SCOPE)).singleElement().satisfies(q -> {
        assertThat(q.taskId()).isEqualTo("b");
        assertThat(q.dueAt()).isEqualTo(T0);
        assertThat(q.nextAttempt()).isEqualTo(1);
      });
    }
  }

  @Nested
  class Pacing {
    @Test
    void configuredRateIsNeverExceededInAnyWindowAndSendsAreSpaced() {
      RateSettings rate = RateSettings.of(5, Duration.ofSeconds(1));
      EngineFixture fx = new EngineFixture(Duration.ofMillis(10), r -> RecordingTransport.ok(), ScopeSettings.of(SCOPE, 10, 1000).withRate(rate));
      for (int i = 0; i < 60; i++) {
        fx.engine.submit(read("t" + i));
      }
      fx.clock.advance(Duration.ofSeconds(60));
      List<Instant> sends = fx.transport.sendTimes();
      assertThat(sends).hasSize(60);
      assertThat(maxInWindow(sends, Duration.ofSeconds(1))).isLessThanOrEqualTo(5);
      for (int i = 1; i < sends.size(); i++) {
        assertThat(Duration.between(sends.get(i - 1), sends.get(i))).isGreaterThanOrEqualTo(Duration.ofMillis(200));
      }
    }

    @Test
    void burstLetsThatManyLeaveTogetherButNoWindowExceedsTheQuota() {
      RateSettings rate = new RateSettings(10, Duration.ofSeconds(2), 0, OptionalInt.of(4));
      EngineFixture fx = new EngineFixture(Duration.ofMillis(10), r -> RecordingTransport.ok(), ScopeSettings.of(SCOPE, 10, 1000).withRate(rate));
      fx.engine.submit(read("probe"));
      fx.clock.advance(Duration.ofMillis(10));
      for (int i = 0; i < 50; i++) {
        fx.engine.submit(read("t" + i));
      }
      fx.clock.advance(Duration.ofSeconds(60));
      List<Instant> sends = fx.transport.sendTimes();
      assertThat(sends).hasSize(51);
      assertThat(maxInWindow(sends, Duration.ofSeconds(2))).isLessThanOrEqualTo(10);
      assertThat(sends.stream().filter(t -> t.equals(T0.plusMillis(10))).count()).isBetween(2L, 4L);
    }

    @Test
    void quotaLearnedFromHeadersPacesLaterSends() {
      // The provider publishes 4 requests per 2 s; no rate configured.
      EngineFixture fx = new EngineFixture(Duration.ofMillis(10),
          r -> RecordingTransport.status(200, "RateLimit-Policy", "\"default\";q=4;w=2", "RateLimit", "\"default\";r=3;t=2"),
          ScopeSettings.of(SCOPE, 10, 1000));
      for (int i = 0; i < 30; i++) {
        fx.engine.submit(read("t" + i));
      }
      fx.clock.advance(Duration.ofSeconds(60));
      List<Instant> sends = fx.transport.sendTimes();
      assertThat(sends).hasSize(30);
      assertThat(maxInWindow(sends.subList(1, sends.size()), Duration.ofSeconds(2))).isLessThanOrEqualTo(4);
      assertThat(fx.registry.learnedQuota(SCOPE)).hasValueSatisfying(q -> assertThat(q.limit()).hasValue(4));
    }

    @Test
    void backgroundWorkLeavesTheInteractiveReserveUnused() {
      RateSettings rate = new RateSettings(10, Duration.ofSeconds(10), 0.3, OptionalInt.of(10));
      EngineFixture fx = new EngineFixture(Duration.ofMillis(10), r -> RecordingTransport.ok(), ScopeSettings.of(SCOPE, 20, 1000).withRate(rate));
      fx.engine.submit(read("probe", Priority.BACKGROUND));
      fx.clock.advance(Duration.ofMillis(10));
      for (int i = 0; i < 20; i++) {
        fx.engine.submit(read("bg" + i, Priority.BACKGROUND));
      }
      // Background may use 7 of the 10 per window (the probe included); the rest waits.
      assertThat(fx.transport.calls()).hasSize(7);
      CompletableFuture<Outcome> urgent = fx.engine.submit(read("fg", Priority.INTERACTIVE));
      assertThat(fx.transport.calls()).hasSize(8);
      assertThat(fx.transport.calls().get(7).request().taskId()).isEqualTo("fg");
      fx.clock.advance(Duration.ofMillis(20));
      assertThat(urgent.join().outcome()).isEqualTo(OutcomeCode.SUCCEEDED);
      fx.clock.advance(Duration.ofMinutes(2));
      assertThat(maxInWindow(fx.transport.calls().stream().filter(c -> !c.request().taskId().equals("fg")).map(RecordingTransport.Call::at).toList(),
          Duration.ofSeconds(10))).isLessThanOrEqualTo(7);
    }
  }

  @Nested
  class Priorities {
    @Test
    void interactiveGoesBeforeBackgroundThatArrivedEarlier() {
      EngineFixture fx = new EngineFixture(Duration.ofSeconds(1), r -> RecordingTransport.ok(), ScopeSettings.of(SCOPE, 1, 100));
      fx.engine.submit(read("first", Priority.BACKGROUND));
      fx.engine.submit(read("bg", Priority.BACKGROUND));
      fx.engine.submit(read("fg", Priority.INTERACTIVE));
      fx.clock.advance(Duration.ofSeconds(10));
      assertThat(fx.transport.calls().stream().map(c -> c.request().taskId())).containsExactly("first", "fg", "bg");
    }
  }

  @Nested
  class Backpressure {
    @Test
    void aFullQueueRefusesANewDelayedRequestAtOnce() {
      EngineFixture fx = new EngineFixture(Duration.ofSeconds(5), r -> RecordingTransport.ok(), ScopeSettings.of(SCOPE, 1, 2));
      fx.engine.submit(read("in-flight"));
      fx.engine.submit(read("waiting-1"));
      fx.engine.submit(read("waiting-2"));
      CompletableFuture<Outcome> refused = fx.engine.submit(read("one-too-many"));
      assertThat(refused).isCompleted();
      Outcome o = refused.join();
      assertThat(o.outcome()).isEqualTo(OutcomeCode.SCOPE_BACKPRESSURE);
      assertThat(o.requestSent()).isFalse();
      assertThat(o.attempts()).isZero();
      assertThat(o.reason()).contains("max_delayed_requests");
      fx.clock.advance(Duration.ofMinutes(1));
      assertThat(fx.transport.calls()).extracting(c -> c.request().taskId()).containsExactly("in-flight", "waiting-1", "waiting-2");
    }
  }
}
