package dev.sluice.gateway.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.core.classify.AttemptResult;
import dev.sluice.core.engine.Outcome;
import dev.sluice.core.engine.OutcomeCode;
import dev.sluice.core.http.Headers;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/** What the gateway keeps of its actions: bounded in number, and in the bytes of responses nobody has fetched. */
class ActionRegistryTest {
  static final Instant T0 = Instant.parse("2026-11-30T00:00:00Z");

  static ActionRegistry.Entry entry(String id, CompletableFuture<Outcome> f) {
    return new ActionRegistry.Entry(id, Optional.empty(), "bot", "api", "t", Optional.empty(), "GET", "/v1/x", T0, f);
  }

  static Outcome succeeded(int bodyBytes) {
    return new Outcome("bot/t", 1, OutcomeCode.SUCCEEDED, true, true, 2, Duration.ofMillis(1500), OptionalInt.of(200), Optional.empty(),
        "nothing to do", "the provider answered 200", Optional.of(new AttemptResult.Response(200, Headers.of("Content-Type", "text/plain"),
            new byte[bodyBytes])), Optional.empty(), false, T0, false);
  }

  static Outcome failed() {
    return new Outcome("bot/t", 1, OutcomeCode.BUDGET_EXHAUSTED, true, true, 1, Duration.ZERO, OptionalInt.of(429), Optional.empty(),
        "wait", "budget", Optional.empty(), Optional.empty(), false, T0, false);
  }

  @Test
  void aDeliveredResponseIsDroppedAndTheOutcomeContextStays() {
    ActionRegistry r = new ActionRegistry(10);
    CompletableFuture<Outcome> f = new CompletableFuture<>();
    r.add(entry("a", f));
    f.complete(succeeded(1000));
    assertThat(r.get("a").orElseThrow().responseKept()).isTrue();
    assertThat(r.keptBytes()).isGreaterThanOrEqualTo(1000);

    r.delivered("a");

    ActionRegistry.Entry e = r.get("a").orElseThrow();
    assertThat(e.responseKept()).isFalse();
    Outcome o = e.outcome().join();
    assertThat(o.response()).isEmpty();
    assertThat(o.outcome()).isEqualTo(OutcomeCode.SUCCEEDED);
    assertThat(o.lastStatus()).hasValue(200);
    assertThat(o.attempts()).isEqualTo(2);
    assertThat(o.waited()).isEqualTo(Duration.ofMillis(1500));
    assertThat(r.keptBytes()).isZero();
  }

  @Test
  void anOutcomeWithoutAResponseIsLeftAsItIs() {
    ActionRegistry r = new ActionRegistry(10);
    r.add(entry("a", CompletableFuture.completedFuture(failed())));
    r.delivered("a");
    assertThat(r.get("a").orElseThrow().responseKept()).isTrue(); // nothing was dropped: the problem can be answered again
    assertThat(r.keptBytes()).isZero();
  }

  @Test
  void undeliveredResponsesAreKeptUpToTheByteBoundOldestDroppedFirst() {
    ActionRegistry r = new ActionRegistry(100, 25_000);
    for (String id : new String[] {"a", "b", "c"}) {
      CompletableFuture<Outcome> f = new CompletableFuture<>();
      r.add(entry(id, f));
      f.complete(succeeded(10_000));
    }
    assertThat(r.get("a").orElseThrow().responseKept()).isFalse();
    assertThat(r.get("a").orElseThrow().outcome().join().lastStatus()).hasValue(200);
    assertThat(r.get("b").orElseThrow().responseKept()).isTrue();
    assertThat(r.get("c").orElseThrow().responseKept()).isTrue();
    assertThat(r.keptBytes()).isBetween(20_000L, 25_000L);
  }

  @Test
  void aResponseLargerThanTheWholeBoundIsNotKept() {
    ActionRegistry r = new ActionRegistry(100, 5_000);
    r.add(entry("big", CompletableFuture.completedFuture(succeeded(10_000))));
    assertThat(r.get("big").orElseThrow().responseKept()).isFalse();
    assertThat(r.keptBytes()).isZero();
  }

  @Test
  void pastItsCapacityTheOldestFinishedActionsAreForgottenAndPendingOnesStay() {
    ActionRegistry r = new ActionRegistry(2);
    r.add(entry("pending", new CompletableFuture<>()));
    r.add(entry("done-1", CompletableFuture.completedFuture(succeeded(100))));
    r.add(entry("done-2", CompletableFuture.completedFuture(succeeded(100))));
    assertThat(r.get("pending")).isPresent();
    assertThat(r.get("done-1")).isEmpty();
    assertThat(r.get("done-2")).isPresent();
    assertThat(r.keptBytes()).isLessThan(200); // the forgotten one's bytes are not counted any more
  }

  @Test
  void badBoundsAreRefused() {
    assertThatThrownBy(() -> new ActionRegistry(0)).hasMessageContaining("capacity");
    assertThatThrownBy(() -> new ActionRegistry(1, -1)).hasMessageContaining("keptBytesLimit");
  }
}
