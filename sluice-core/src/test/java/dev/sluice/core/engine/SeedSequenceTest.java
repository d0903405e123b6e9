package dev.sluice.core.engine;

import static dev.sluice.core.engine.EngineFixture.SCOPE;
import static dev.sluice.core.engine.EngineFixture.T0;
import static dev.sluice.core.engine.EngineFixture.read;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.core.scope.ScopeRecord;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The seed's steps 1–3 on virtual time: one 429 holds the whole scope, then all succeed, spread out. */
class SeedSequenceTest {
  private static final Duration LATENCY = Duration.ofMillis(20);

  @Test
  void threeTasksOneRetryAfterTenNothingElseSentUntilItPassesThenAllSucceedAtDistinctTimes() {
    AtomicInteger n = new AtomicInteger();
    EngineFixture fx = new EngineFixture(LATENCY, r -> n.incrementAndGet() == 1 ? RecordingTransport.status(429, "Retry-After", "10")
        : RecordingTransport.ok(), ScopeSettings.of(SCOPE, 2, 25));

    // Step 1: three tasks issue the same safe read (not immutable: no coalescing).
    List<CompletableFuture<Outcome>> outcomes = List.of(fx.engine.submit(read("task-1")), fx.engine.submit(read("task-2")),
        fx.engine.submit(read("task-3")));

    // Step 2: the first gets 429 Retry-After: 10 ...
    fx.clock.advance(LATENCY);
    Instant received = T0.plus(LATENCY);
    ScopeRecord rec = fx.engine.scopes().get(0);
    assertThat(rec.nextAllowedAt()).contains(received.plusSeconds(10));
    assertThat(rec.remaining()).hasValue(0);
    assertThat(rec.source()).isEqualTo("HTTP 429 Retry-After");
    // ... and nothing else reaches the provider until the 10 s have passed, not the other tasks either.
    fx.clock.advanceTo(received.plusSeconds(10).minusNanos(1));
    assertThat(fx.transport.calls()).hasSize(1);
    assertThat(fx.engine.queue(SCOPE)).hasSize(3).allSatisfy(q -> assertThat(q.dueAt()).isAfterOrEqualTo(received.plusSeconds(10)));

    // Step 3: after the delay all three succeed, at distinct times.
    fx.clock.advance(Duration.ofSeconds(30));
    assertThat(outcomes).allSatisfy(f -> assertThat(f).isCompleted());
    assertThat(outcomes.stream().map(CompletableFuture::join).toList()).allSatisfy(o -> assertThat(o.outcome()).isEqualTo(OutcomeCode.SUCCEEDED));
    List<Instant> later = fx.transport.sendTimes().subList(1, fx.transport.sendTimes().size());
    assertThat(later).hasSize(3).allSatisfy(t -> assertThat(t).isAfterOrEqualTo(received.plusSeconds(10)));
    assertThat(later).doesNotHaveDuplicates();
    Outcome first = outcomes.get(0).join();
    assertThat(first.attempts()).isEqualTo(2);
    assertThat(first.waited()).isGreaterThanOrEqualTo(Duration.ofSeconds(10));
    assertThat(first.requestSent()).isTrue();
    assertThat(first.responseReceived()).isTrue();
    assertThat(first.lastStatus()).hasValue(200);
    assertThat(first.response()).isPresent();
    assertThat(outcomes.get(1).join().attempts()).isEqualTo(1);
  }

  @Test
  void aColdScopeIsProbedWithOneAttemptSoSimultaneousStartersCostOne429() {
    EngineFixture fx = new EngineFixture(LATENCY, r -> RecordingTransport.status(429, "Retry-After", "5"), ScopeSettings.of(SCOPE, 4, 25));
    for (int i = 0; i < 4; i++) {
      fx.engine.submit(read("t" + i));
    }
    assertThat(fx.transport.calls()).hasSize(1);
    assertThat(fx.transport.maxInFlight()).isEqualTo(1);
  }
}
