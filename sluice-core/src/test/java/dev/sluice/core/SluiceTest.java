package dev.sluice.core;

import static dev.sluice.core.ScriptedTransport.HANG;
import static dev.sluice.core.ScriptedTransport.ok;
import static dev.sluice.core.ScriptedTransport.status;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.core.classify.AttemptResult;
import dev.sluice.core.engine.AttemptRequest;
import dev.sluice.core.engine.Outcome;
import dev.sluice.core.engine.OutcomeCode;
import dev.sluice.core.engine.VirtualScheduler;
import dev.sluice.core.policy.Policy;
import dev.sluice.core.policy.PolicyLoader;
import dev.sluice.core.scope.ScopeRecord;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The facade maps the policy onto the engine; measured at an in-JVM transport on virtual time. */
class SluiceTest {
  static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

  static final Policy POLICY = PolicyLoader.parse("""
      providers:
        billing-api:
          base_url: https://billing.example.com
          scope: account:ops-team
          shared_scope: {max_delayed_requests: 3, max_concurrent_requests: 2}
          idempotency_header: Idempotency-Key
          routes:
            - {method: GET, path: "/v1/invoices/{id}", class: read, immutable: true}
            - {method: POST, path: "/v1/transfers", class: idempotent_write,
               lookup: {method: GET, path: "/v1/transfers?idempotency_key={idempotency_key}"}}
        plain-api:
          base_url: https://plain.example.com
          rate: {requests: 5, per_seconds: 1}
          shared_scope: {max_delayed_requests: 25, max_concurrent_requests: 10}
      """, "test.yaml");

  final VirtualScheduler clock = new VirtualScheduler(T0);
  ScriptedTransport transport;
  Sluice sluice;

  Sluice start(Function<AttemptRequest, AttemptResult> script) {
    transport = new ScriptedTransport(clock, script);
    sluice = Sluice.builder().policy(POLICY).scheduler(clock).transport(transport).random(7).maxRequestBytes(64).build();
    return sluice;
  }

  @AfterEach
  void close() {
    if (sluice != null) {
      sluice.close();
    }
  }

  static Call get(String provider, String target, String task) {
    return Call.get(provider, target, task);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', textBlock = """
      unknown provider        | nowhere     | GET  | /v1/x                   | unknown_provider
      dot segment             | billing-api | GET  | /v1/../admin            | unsafe_path (dot_segment)
      encoded dot segment     | billing-api | GET  | /v1/%2e%2e/admin        | unsafe_path (dot_segment)
      encoded slash           | billing-api | GET  | /v1/a%2Fb               | unsafe_path (encoded_slash)
      absolute-form target    | billing-api | GET  | http://evil.example/x   | unsafe_path (not_origin_form)
      lower-case method       | billing-api | get  | /v1/invoices/1          | bad_method
      """)
  void aCallThatCannotBeSafelySentIsRefusedAtOnceAndNothingLeaves(String name, String provider, String method, String target, String code) {
    start(r -> ok());
    Outcome o = sluice.submit(Call.builder(provider, method, target).task("t").build()).join();
    assertThat(o.outcome()).isEqualTo(OutcomeCode.REFUSED);
    assertThat(o.reason()).startsWith(code);
    assertThat(o.requestSent()).isFalse();
    assertThat(o.attempts()).isZero();
    assertThat(transport.sent()).isEmpty();
  }

  @Test
  void malformedHeadersKeysAndOversizedBodiesAreRefusedWithoutEchoingValues() {
    start(r -> ok());
    List<Outcome> outcomes = List.of(
        sluice.submit(Call.builder("billing-api", "GET", "/v1/invoices/1").header("X-Note", "a\r\nX-Injected: secret-ish").build()).join(),
        sluice.submit(Call.builder("billing-api", "POST", "/v1/transfers").idempotencyKey(" ").build()).join(),
        sluice.submit(Call.builder("billing-api", "POST", "/v1/transfers").body("x".repeat(65)).build()).join());
    assertThat(outcomes).extracting(Outcome::outcome).containsOnly(OutcomeCode.REFUSED);
    assertThat(outcomes).extracting(o -> o.reason().substring(0, o.reason().indexOf(':')))
        .containsExactly("bad_header", "bad_idempotency_key", "body_too_large");
    assertThat(outcomes.get(0).reason()).doesNotContain("secret-ish");
    assertThat(transport.sent()).isEmpty();
  }

  @Test
  void aWriteCarriesOneGeneratedKeyOnEveryAttemptAndAReadCarriesNone() {
    AtomicInteger n = new AtomicInteger();
    start(r -> r.method().equals("POST") && n.incrementAndGet() == 1 ? status(503) : ok());
    CompletableFuture<Outcome> write = sluice.submit(Call.builder("billing-api", "POST", "/v1/transfers").task("w").body("{\"amount\":5}").build());
    clock.advance(Duration.ofSeconds(10));
    Outcome o = write.join();
    assertThat(o.outcome()).isEqualTo(OutcomeCode.SUCCEEDED);
    assertThat(o.attempts()).isEqualTo(2);
    List<AttemptRequest> posts = transport.requests();
    assertThat(posts).hasSize(2);
    assertThat(posts.get(0).idempotencyKey()).hasValueSatisfying(k -> assertThat(k).matches("sk_[0-9A-HJKMNP-TV-Z]{26}"));
    assertThat(posts.get(1).idempotencyKey()).isEqualTo(posts.get(0).idempotencyKey());

    sluice.submit(get("billing-api", "/v1/invoices/inv_1", "r")).join();
    assertThat(transport.requests().get(2).idempotencyKey()).isEmpty();
  }

  @Test
  void theCallersKeyOrTheAgentsOwnHeaderIsTheKeyAndTheHeaderIsNotForwardedBesideIt() {
    start(r -> ok());
    sluice.submit(Call.builder("billing-api", "POST", "/v1/transfers").idempotencyKey("k-1").build()).join();
    sluice.submit(Call.builder("billing-api", "POST", "/v1/transfers").header("idempotency-key", "k-2").build()).join();
    List<AttemptRequest> sent = transport.requests();
    assertThat(sent).extracting(a -> a.idempotencyKey().orElseThrow()).containsExactly("k-1", "k-2");
    assertThat(sent.get(1).headers().contains("Idempotency-Key")).isFalse();
  }

  @Test
  void credentialAndCookieHeadersFromTheCallerNeverReachTheTransport() {
    start(r -> ok());
    sluice.submit(Call.builder("billing-api", "GET", "/v1/invoices/inv_1").header("Authorization", "Bearer caller-secret")
        .header("Proxy-Authorization", "Basic x").header("Cookie", "session=1").header("X-Kept", "yes").build()).join();
    AttemptRequest sent = transport.requests().get(0);
    assertThat(sent.headers().names()).containsExactly("x-kept");
  }

  @Test
  void aWriteToAProviderWithoutIdempotencyHasNoKeyAndAnUncertainFailureStopsForAPersonWithoutARepeat() {
    start(r -> status(503));
    Outcome o = sluice.submit(Call.builder("plain-api", "POST", "/orders").task("w").build()).join();
    assertThat(o.outcome()).isEqualTo(OutcomeCode.RECONCILIATION_REQUIRED);
    assertThat(o.reason()).contains("no idempotency key and no look-up");
    assertThat(o.attempts()).isEqualTo(1);
    assertThat(transport.requests()).singleElement().satisfies(a -> assertThat(a.idempotencyKey()).isEmpty());
  }

  @Test
  void identicalReadsOfAnImmutableRouteWhileOneIsInFlightShareOneAttempt() {
    start(r -> HANG);
    CompletableFuture<Outcome> a = sluice.submit(get("billing-api", "/v1/invoices/inv_1", "task-a"));
    CompletableFuture<Outcome> b = sluice.submit(get("billing-api", "/v1/invoices/inv_1", "task-b"));
    assertThat(transport.sent()).hasSize(1);
    transport.answerHanging(ok());
    assertThat(a.join().outcome()).isEqualTo(OutcomeCode.SUCCEEDED);
    assertThat(b.join().coalesced()).isTrue();
    assertThat(b.join().taskId()).isEqualTo("task-b");
  }

  @Test
  void theSharedScopeBlockBoundsWhatIsInFlightAndWhatMayWait() {
    start(r -> HANG);
    List<CompletableFuture<Outcome>> calls = new ArrayList<>();
    for (int i = 1; i <= 6; i++) {
      calls.add(sluice.submit(get("billing-api", "/v1/invoices/inv_" + i, "t" + i)));
    }
    // Nothing is known of the scope yet: one probe goes, 3 wait (max_delayed_requests), 2 are refused.
    assertThat(sluice.inFlight("billing-api")).isEqualTo(1);
    assertThat(sluice.queue("billing-api")).hasSize(3);
    assertThat(calls.subList(4, 6)).allSatisfy(f -> assertThat(f.join().outcome()).isEqualTo(OutcomeCode.SCOPE_BACKPRESSURE));
    // The probe's answer opens the scope to max_concurrent_requests = 2.
    transport.answerHanging(ok());
    assertThat(sluice.inFlight("billing-api")).isEqualTo(2);
    assertThat(sluice.queue("billing-api")).hasSize(1);
  }

  @Test
  void aPublishedRateWithoutBurstLetsTheWholeQuotaLeaveAtOnceThenWaitsForTheWindow() {
    start(r -> ok());
    List<CompletableFuture<Outcome>> calls = new ArrayList<>();
    for (int i = 0; i < 12; i++) {
      calls.add(sluice.submit(get("plain-api", "/items/" + i, "t" + i)));
    }
    assertThat(transport.sent()).hasSize(5);
    clock.advance(Duration.ofSeconds(1));
    assertThat(transport.sent()).hasSize(10);
    clock.advance(Duration.ofSeconds(1));
    assertThat(calls).allSatisfy(f -> assertThat(f.join().outcome()).isEqualTo(OutcomeCode.SUCCEEDED));
  }

  @Test
  void cancellingATaskEndsItsCallsOnEveryProviderAndItsLaterCallsToo() {
    start(r -> HANG);
    CompletableFuture<Outcome> inFlight = sluice.submit(get("billing-api", "/v1/invoices/inv_1", "job"));
    CompletableFuture<Outcome> queued = sluice.submit(get("billing-api", "/v1/invoices/inv_2", "job"));
    CompletableFuture<Outcome> other = sluice.submit(get("plain-api", "/items/1", "job"));
    assertThat(sluice.cancel("job")).isEqualTo(3);
    assertThat(List.of(inFlight, queued, other)).allSatisfy(f -> assertThat(f.join().outcome()).isEqualTo(OutcomeCode.CANCELLED));
    assertThat(sluice.submit(get("plain-api", "/items/2", "job")).join().outcome()).isEqualTo(OutcomeCode.CANCELLED);
    assertThat(transport.sent()).hasSize(2); // the billing probe and the plain-api read; never inv_2
  }

  @Test
  void aDeadlineShorterThanTheProvidersDelayEndsTheCallAndA429HoldsTheScopeInTheSeedsShape() {
    start(r -> status(429, "Retry-After", "30"));
    Outcome o = sluice.submit(Call.builder("billing-api", "GET", "/v1/invoices/1").task("t").deadline(T0.plusSeconds(10)).build()).join();
    assertThat(o.outcome()).isEqualTo(OutcomeCode.DEADLINE_EXCEEDED);
    assertThat(o.attempts()).isEqualTo(1);
    assertThat(sluice.scopes()).extracting(ScopeRecord::provider, ScopeRecord::scope)
        .containsExactly(org.assertj.core.groups.Tuple.tuple("billing-api", "account:ops-team"),
            org.assertj.core.groups.Tuple.tuple("plain-api", "credential:plain-api"));
    ScopeRecord billing = sluice.scopes().get(0);
    assertThat(billing.nextAllowedAt()).contains(T0.plusSeconds(30));
    assertThat(billing.source()).isEqualTo("HTTP 429 Retry-After");
    assertThat(billing.requestClass()).isEqualTo("read");
  }

  @Test
  void closingCancelsWhatIsPendingAndRefusesNewCalls() {
    start(r -> HANG);
    CompletableFuture<Outcome> pending = sluice.submit(get("billing-api", "/v1/invoices/inv_1", "t"));
    sluice.close();
    assertThat(pending.join().outcome()).isEqualTo(OutcomeCode.CANCELLED);
    assertThatThrownBy(() -> sluice.submit(get("billing-api", "/v1/invoices/inv_1", "t"))).isInstanceOf(IllegalStateException.class);
  }

  @Test
  void loadReadsThePolicyFileAndAMissingSecretNamesTheProviderAndVariableOnly(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("sluice.yaml");
    Files.writeString(file, """
        providers:
          open-api:
            base_url: http://127.0.0.1:9
        """);
    // sluice-core has no journal implementation of its own (sluice-store registers SQLite's):
    // load refuses to start without one rather than run writes without durability.
    assertThatThrownBy(() -> Sluice.load(file)).isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("no journal implementation").hasMessageContaining("sluice-store");
    Policy withSecret = PolicyLoader.parse("""
        providers:
          billing-api:
            base_url: https://billing.example.com
            credential: {header: Authorization, format: "Bearer {secret}", secret_env: SLUICE_TEST_NOT_SET_42}
        """, "p.yaml");
    assertThatThrownBy(() -> Sluice.builder().policy(withSecret).secrets(n -> Optional.empty()).build())
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("provider 'billing-api': the credential's secret_env SLUICE_TEST_NOT_SET_42 is not set");
  }
}
