package dev.sluice.acceptance;

import static dev.sluice.acceptance.Harness.T0;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.core.Call;
import dev.sluice.core.Sluice;
import dev.sluice.core.engine.Outcome;
import dev.sluice.core.engine.OutcomeCode;
import dev.sluice.core.policy.PolicyLoader;
import dev.sluice.fake.Attempt;
import dev.sluice.fake.FakeProvider;
import dev.sluice.fake.Fault;
import dev.sluice.fake.FaultRule;
import dev.sluice.fake.ScopeBy;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.Optional;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The real transport against the fake provider: every attempt Sluice counts is one the provider
 * received, and none it did not; a failure after the bytes left is never taken for "nothing sent".
 */
class TransportAtTheFakeProviderTest {
  static final String PROVIDER = """
      idempotency_header: Idempotency-Key
      routes:
        - {method: GET, path: "/v1/invoices/{id}", class: read}
        - {method: POST, path: "/v1/transfers", class: idempotent_write,
           lookup: {method: GET, path: "/v1/transfers?idempotency_key={idempotency_key}"}}
        - {method: GET, path: "/v1/balance", class: uncertain_write}
      """;

  @Test
  void connectionResetsProduceExactlyTheAttemptsSluiceCounted() {
    FakeProvider.Builder fake = FakeProvider.builder().fault(FaultRule.of(Fault.reset()).path("/v1/invoices/{id}").times(2));
    try (Harness h = Harness.virtualTime(fake, PROVIDER)) {
      CompletableFuture<Outcome> f = h.sluice.submit(Call.get(Harness.PROVIDER, "/v1/invoices/inv_2", "reader"));
      h.runUntil(T0.plusSeconds(90));
      Outcome o = f.join();
      assertThat(o.outcome()).isEqualTo(OutcomeCode.SUCCEEDED);
      assertThat(h.fake.attempts()).extracting(Attempt::result)
          .containsExactly(Attempt.Result.RESET, Attempt.Result.RESET, Attempt.Result.ANSWERED);
      assertThat(o.attempts()).isEqualTo(h.fake.attempts().size()).isEqualTo(3);
    }
  }

  @Test
  void aWriteDroppedAfterTheProviderSavedItIsReconciledNeverSentAgain() {
    FakeProvider.Builder fake = FakeProvider.builder().fault(FaultRule.of(Fault.dropAfterCommit()).method("POST"));
    try (Harness h = Harness.virtualTime(fake, PROVIDER)) {
      CompletableFuture<Outcome> f = h.sluice.submit(Call.builder(Harness.PROVIDER, "POST", "/v1/transfers").task("payer")
          .header("Content-Type", "application/json").body("{\"amount\":25}").build());
      h.runUntil(T0.plusSeconds(120));
      Outcome o = f.join();
      assertThat(o.outcome()).isEqualTo(OutcomeCode.SUCCEEDED);
      assertThat(o.reconciled()).isTrue();
      assertThat(o.requestSent()).isTrue();
      assertThat(o.attempts()).isEqualTo(2).isEqualTo(h.fake.attempts().size());
      List<Attempt> seen = h.fake.attempts();
      assertThat(seen.get(0).result()).isEqualTo(Attempt.Result.DROPPED);
      String key = seen.get(0).idempotencyKey().orElseThrow();
      assertThat(key).startsWith("sk_");
      // The second attempt is the look-up by that key, not a second POST.
      assertThat(seen.get(1).method()).isEqualTo("GET");
      assertThat(seen.get(1).query()).isEqualTo("idempotency_key=" + key);
      assertThat(h.fake.records("transfers")).hasSize(1); // the effect happened once, and only once
    }
  }

  @Test
  void aDroppedOrTruncatedAnswerIsOutcomeUnknownNotNothingSent() {
    FakeProvider.Builder fake = FakeProvider.builder()
        .fault(FaultRule.of(Fault.dropAfterCommit()).path("/v1/balance").nth(1))
        .fault(FaultRule.of(Fault.truncate(5)).path("/v1/balance").nth(2));
    try (Harness h = Harness.virtualTime(fake, PROVIDER)) {
      Outcome dropped = h.sluice.submit(Call.get(Harness.PROVIDER, "/v1/balance", "a")).join();
      Outcome truncated = h.sluice.submit(Call.get(Harness.PROVIDER, "/v1/balance", "b")).join();
      // A single-attempt class: the verdict surfaces as the outcome itself.
      assertThat(dropped.outcome()).isEqualTo(OutcomeCode.OUTCOME_UNKNOWN);
      assertThat(truncated.outcome()).isEqualTo(OutcomeCode.OUTCOME_UNKNOWN);
      assertThat(dropped.requestSent()).isTrue();
      assertThat(h.fake.attempts()).extracting(Attempt::result).containsExactly(Attempt.Result.DROPPED, Attempt.Result.TRUNCATED);
    }
  }

  @Test
  void aRefusedConnectionIsResetBeforeSendAndNothingWasSent() throws Exception {
    int closedPort;
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      closedPort = s.getLocalPort();
    }
    String yaml = """
        providers:
          gone:
            base_url: http://127.0.0.1:%d
        """.formatted(closedPort);
    try (Sluice sluice = Sluice.builder().policy(PolicyLoader.parse(yaml, "gone.yaml")).build()) {
      Outcome o = sluice.submit(Call.builder("gone", "POST", "/records").task("w").body("{}").build()).get(20, TimeUnit.SECONDS);
      assertThat(o.outcome()).isEqualTo(OutcomeCode.RESET_BEFORE_SEND);
      assertThat(o.requestSent()).isFalse();
      assertThat(o.attempts()).isEqualTo(1);
    }
  }

  @Test
  void theFacadeReadsTheSecretAndTheCredentialReachesTheProviderAndNothingElse() throws Exception {
    String canary = "Bearer canary-4471";
    try (FakeProvider fake = FakeProvider.builder().acceptCredentials(canary).start()) {
      String yaml = """
          providers:
            api:
              base_url: %s
              credential: {header: Authorization, format: "Bearer {secret}", secret_env: API_TOKEN}
          """.formatted(fake.baseUri());
      try (Sluice sluice = Sluice.builder().policy(PolicyLoader.parse(yaml, "p.yaml"))
          .secrets(n -> n.equals("API_TOKEN") ? Optional.of("canary-4471") : Optional.empty()).build()) {
        Outcome ok = sluice.submit(Call.builder("api", "GET", "/v1/invoices/inv_1").task("t")
            .header("Authorization", "Bearer agent-token").build()).get(20, TimeUnit.SECONDS);
        assertThat(ok.outcome()).isEqualTo(OutcomeCode.SUCCEEDED);
        assertThat(fake.attempts()).singleElement().satisfies(a -> {
          assertThat(a.status()).isEqualTo(200);
          assertThat(a.scope()).isEqualTo(ScopeBy.credentialScope(canary));
        });
        assertThat(ok.toString() + ok.reason() + ok.nextSafeAction()).doesNotContain("canary-4471");
      }
    }
  }
}
