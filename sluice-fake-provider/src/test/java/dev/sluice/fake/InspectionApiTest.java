package dev.sluice.fake;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The /__fake control API: off unless enabled, credential-free, never limited, never logged. */
class InspectionApiTest {

  static FakeProvider inspected() {
    return FakeProvider.builder().inspect(true).quota(Quota.perSecond(1, 1)).acceptCredentials("Bearer secret").start();
  }

  @Test
  void itIsOffByDefaultAndItsPathsAreOrdinaryUnknownRoutes() {
    try (FakeProvider fake = FakeProvider.startDefault()) {
      Http http = new Http(fake.baseUri());
      http.post("/records", "{}");
      assertThat(http.get("/__fake/attempts").statusCode()).isEqualTo(404);
      assertThat(http.post("/__fake/reset", "").statusCode()).isEqualTo(404);
      assertThat(fake.records("records")).hasSize(1); // nothing was reset
      assertThat(fake.attempts()).extracting(Attempt::path).containsExactly("/records", "/__fake/attempts", "/__fake/reset");
    }
  }

  @Test
  void attemptsAreListedWithoutTheCredentialAndInspectionIsNotCounted() {
    try (FakeProvider fake = inspected()) {
      Http http = new Http(fake.baseUri());
      http.post("/records?x=1", "{}", "Authorization", "Bearer secret", "Idempotency-Key", "k1", "Sluice-Task", "t1");
      http.get("/records", "Authorization", "Bearer secret"); // 429: burst 1
      for (int i = 0; i < 5; i++) {
        assertThat(http.get("/__fake/attempts").statusCode()).isEqualTo(200); // no credential, no quota
      }
      HttpResponse<String> r = http.get("/__fake/attempts");
      assertThat(r.body()).doesNotContain("secret");
      JsonNode list = Http.json(r);
      assertThat(list).hasSize(2);
      JsonNode first = list.get(0);
      assertThat(first.get("seq").asLong()).isEqualTo(1);
      assertThat(first.get("method").asText()).isEqualTo("POST");
      assertThat(first.get("path").asText()).isEqualTo("/records");
      assertThat(first.get("query").asText()).isEqualTo("x=1");
      assertThat(first.get("scope").asText()).isEqualTo(ScopeBy.credentialScope("Bearer secret"));
      assertThat(first.get("idempotency_key").asText()).isEqualTo("k1");
      assertThat(first.get("task").asText()).isEqualTo("t1");
      assertThat(first.get("status").asInt()).isEqualTo(201);
      assertThat(first.get("result").asText()).isEqualTo("answered");
      assertThat(first.get("arrived_at").asText()).isNotEmpty();
      assertThat(list.get(1).get("status").asInt()).isEqualTo(429);
      assertThat(Http.json(http.get("/__fake/attempts?status=ignored&method=post"))).hasSize(1);
    }
  }

  @Test
  void recordsOperationsAndBalanceAreListed() {
    try (FakeProvider fake = inspected()) {
      Http http = new Http(fake.baseUri());
      http.post("/records", "{\"client_reference\":\"c-1\"}", "Authorization", "Bearer secret");
      JsonNode recs = Http.json(http.get("/__fake/records?family=records"));
      assertThat(recs).hasSize(1);
      assertThat(recs.get(0).get("client_reference").asText()).isEqualTo("c-1");
      assertThat(recs.get(0).at("/body/client_reference").asText()).isEqualTo("c-1");
      assertThat(Http.json(http.get("/__fake/records?client_reference=c-1"))).hasSize(1);
      assertThat(Http.json(http.get("/__fake/records?family=invoices"))).hasSize(3);
      assertThat(Http.json(http.get("/__fake/operations"))).hasSize(1);
      assertThat(Http.json(http.get("/__fake/balance")).get("available").asLong()).isEqualTo(FakeProviderConfig.DEFAULT_BALANCE);
    }
  }

  @Test
  void faultsCanBePostedListedAndRemoved() {
    try (FakeProvider fake = inspected()) {
      Http http = new Http(fake.baseUri());
      HttpResponse<String> added = http.post("/__fake/faults",
          "[{\"kind\":\"unavailable\",\"path\":\"/records\",\"retry_after_seconds\":3},"
              + "{\"kind\":\"drop_after_commit\",\"method\":\"POST\",\"nth\":2,\"times\":\"all\"}]");
      assertThat(added.statusCode()).isEqualTo(201);
      assertThat(Http.json(added).get("added").asInt()).isEqualTo(2);

      HttpResponse<String> struck = http.get("/records", "Authorization", "Bearer secret");
      assertThat(struck.statusCode()).isEqualTo(503);
      assertThat(struck.headers().firstValue("Retry-After")).hasValue("3");
      JsonNode rules = Http.json(http.get("/__fake/faults"));
      assertThat(rules.get(0).get("kind").asText()).isEqualTo("unavailable");
      assertThat(rules.get(0).get("matched").asLong()).isEqualTo(1);
      assertThat(rules.get(1).get("times").asText()).isEqualTo("all");

      assertThat(Http.json(http.send("DELETE", "/__fake/faults", null)).get("removed").asInt()).isEqualTo(2);
      assertThat(Http.json(http.get("/__fake/faults"))).isEmpty();
    }
  }

  @Test
  void aBadFaultIsRefusedWithTheKeyAndWhatWasExpected() {
    try (FakeProvider fake = inspected()) {
      Http http = new Http(fake.baseUri());
      HttpResponse<String> bad = http.post("/__fake/faults", "{\"kind\":\"unavailable\",\"status\":\"soon\"}");
      assertThat(bad.statusCode()).isEqualTo(400);
      assertThat(Http.json(bad).at("/error/message").asText()).isEqualTo("request body: status: expected an integer, got 'soon'");
      HttpResponse<String> unknown = http.post("/__fake/faults", "{\"kind\":\"reset\",\"sometimes\":true}");
      assertThat(Http.json(unknown).at("/error/message").asText()).startsWith("request body: sometimes: unknown key; expected one of: bytes, delay_ms,");
      HttpResponse<String> wrongKind = http.post("/__fake/faults", "{\"kind\":\"reset\",\"delay_ms\":5}");
      assertThat(Http.json(wrongKind).at("/error/message").asText()).isEqualTo("request body: delay_ms: not used by kind 'reset'");
    }
  }

  @Test
  void heldRequestsAreReleasedAndResetRestartsEverything() throws Exception {
    try (FakeProvider fake = inspected()) {
      Http http = new Http(fake.baseUri());
      http.post("/__fake/faults", "{\"kind\":\"hold\",\"delay_ms\":10000}");
      CompletableFuture<HttpResponse<String>> held = CompletableFuture.supplyAsync(
          () -> http.post("/records", "{}", "Authorization", "Bearer secret"));
      assertThat(fake.awaitHeld(1, Duration.ofSeconds(5))).isTrue();
      assertThat(Http.json(http.post("/__fake/release", "")).get("released").asInt()).isEqualTo(1);
      assertThat(held.get(5, TimeUnit.SECONDS).statusCode()).isEqualTo(201);

      assertThat(http.post("/__fake/reset", "").statusCode()).isEqualTo(200);
      assertThat(Http.json(http.get("/__fake/attempts"))).isEmpty();
      assertThat(Http.json(http.get("/__fake/records?family=records"))).isEmpty();
      assertThat(http.get("/records", "Authorization", "Bearer secret").statusCode()).isEqualTo(200); // bucket full again
    }
  }

  @Test
  void unknownInspectionPathsAndMethodsAreRefused() {
    try (FakeProvider fake = inspected()) {
      Http http = new Http(fake.baseUri());
      assertThat(http.get("/__fake/nothing").statusCode()).isEqualTo(404);
      assertThat(http.send("DELETE", "/__fake/attempts", null).statusCode()).isEqualTo(405);
      assertThat(Http.json(http.get("/__fake")).has("/__fake/attempts")).isTrue();
    }
  }
}
