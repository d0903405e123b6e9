package dev.sluice.core.engine;

import dev.sluice.core.policy.RequestClass;
import static dev.sluice.core.engine.EngineFixture.SCOPE;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.core.engine.internal.Fingerprints;
import dev.sluice.core.http.Headers;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Repeated identical failures stop the path; cosmetic changes to the payload do not evade it. */
class CircuitBreakerTest {
  private static final String ERROR = "{\"error\":{\"code\":\"invalid_amount\",\"message\":\"amount must be positive (req 8f3a)\"}}";

  private static ActionRequest post(String task, String json) {
    return new ActionRequest(task, Priority.INTERACTIVE, SCOPE, RequestClass.SEED_IDEMPOTENT_WRITE, "POST", "/v1/transfers", "/v1/transfers",
        Headers.of("Content-Type", "application/json"), json.getBytes(StandardCharsets.UTF_8), false, Optional.of("key-" + json.hashCode()), true);
  }

  private static EngineFixture fixture() {
    return new EngineFixture(Duration.ZERO, r -> new dev.sluice.core.classify.AttemptResult.Response(422,
        Headers.of("Date", "Thu, 01 Jan 2026 00:00:0" + (r.attempt() % 10) + " GMT", "X-Request-Id", "r" + r.actionId()), ERROR), ScopeSettings.of(SCOPE, 2, 25));
  }

  @Test
  void theThirdIdenticalFailureOpensThePathEvenWhenFieldsAreReorderedOrSpaced() {
    EngineFixture fx = fixture();
    String[] sameMeaning = {
        "{\"amount\":-5,\"currency\":\"EUR\",\"timestamp\":\"2026-01-01T00:00:00Z\"}",
        "{ \"currency\" : \"EUR\",\n  \"amount\": -5 , \"timestamp\":\"2026-01-01T00:00:09Z\"}",
        "{\"currency\":\"EUR\",\"amount\":-5.0}",
        "{\"amount\":-5,\"currency\":\"EUR\"}"};
    for (int i = 0; i < 3; i++) {
      Outcome o = fx.engine.submit(post("agent-run", sameMeaning[i])).join();
      assertThat(o.outcome()).isEqualTo(OutcomeCode.CLIENT_ERROR);
      fx.clock.advance(Duration.ofSeconds(1));
    }
    Outcome stopped = fx.engine.submit(post("agent-run", sameMeaning[3])).join();
    assertThat(stopped.outcome()).isEqualTo(OutcomeCode.CIRCUIT_OPEN);
    assertThat(stopped.fingerprint()).isPresent();
    assertThat(stopped.reason()).contains("422").contains(stopped.fingerprint().get());
    assertThat(stopped.requestSent()).isFalse();
    assertThat(fx.transport.calls()).hasSize(3);
  }

  @Test
  void aDifferentPayloadOrAnotherTaskIsNotStopped() {
    EngineFixture fx = fixture();
    for (int i = 0; i < 3; i++) {
      fx.engine.submit(post("run-1", "{\"amount\":-5}")).join();
    }
    assertThat(fx.engine.submit(post("run-1", "{\"amount\":-6}")).join().outcome()).isEqualTo(OutcomeCode.CLIENT_ERROR);
    assertThat(fx.engine.submit(post("run-2", "{\"amount\":-5}")).join().outcome()).isEqualTo(OutcomeCode.CLIENT_ERROR);
  }

  @Test
  void theCircuitClosesWhenTheFailuresAgeOutOfTheWindow() {
    EngineFixture fx = fixture();
    for (int i = 0; i < 3; i++) {
      fx.engine.submit(post("run", "{\"amount\":-5}")).join();
    }
    assertThat(fx.engine.submit(post("run", "{\"amount\":-5}")).join().outcome()).isEqualTo(OutcomeCode.CIRCUIT_OPEN);
    fx.clock.advance(Duration.ofMinutes(10).plusSeconds(1));
    assertThat(fx.engine.submit(post("run", "{\"amount\":-5}")).join().outcome()).isEqualTo(OutcomeCode.CLIENT_ERROR);
  }

  @Test
  void canonicalPayloadSortsKeysDropsWhitespaceAndVolatileFields() {
    Set<String> vol = Set.of("nonce");
    String a = Fingerprints.canonicalPayload("{\"b\":{\"y\":1,\"x\":[1,2]},\"a\":\"s\",\"nonce\":7}".getBytes(StandardCharsets.UTF_8), vol);
    String b = Fingerprints.canonicalPayload("{ \"a\" : \"s\" ,\"b\":{\"x\":[1, 2], \"y\":1.0} }".getBytes(StandardCharsets.UTF_8), vol);
    assertThat(a).isEqualTo(b).isEqualTo("json:{\"a\":\"s\",\"b\":{\"x\":[1,2],\"y\":1}}");
    assertThat(Fingerprints.canonicalPayload("{\"x\":[2,1]}".getBytes(StandardCharsets.UTF_8), vol))
        .as("array order is meaningful").isNotEqualTo(Fingerprints.canonicalPayload("{\"x\":[1,2]}".getBytes(StandardCharsets.UTF_8), vol));
  }

  @Test
  void theFingerprintCarriesNoPayloadValue() {
    String secret = "sk-live-canary-123";
    String fp = Fingerprints.path("POST", "/v1/x", ("{\"token\":\"" + secret + "\"}").getBytes(StandardCharsets.UTF_8), Set.of());
    assertThat(fp).doesNotContain(secret).startsWith("path:");
  }
}
