package dev.sluice.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.fake.Attempt;
import dev.sluice.fake.FakeProvider;
import dev.sluice.fake.Fault;
import dev.sluice.fake.FaultRule;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An uncertain write is escalated, the gateway restarts on the same data_dir, and only then does
 * the operator decide: the decision is carried out by the new process from the journal, and the
 * fake provider (which outlives both gateways) receives exactly the requests the decision calls
 * for — one look-up for {@code query_existing}, one resend with the original key for {@code
 * retry_same_key}, nothing else.
 */
class EscalationDecisionsAfterRestartTest {
  static final ObjectMapper JSON = new ObjectMapper();
  static final Duration WAIT = Duration.ofSeconds(30);

  @TempDir Path dir;

  private static HttpRequest.Builder agentPost(GatewayHarness h, String path, String key, String body) {
    HttpRequest.Builder b = HttpRequest.newBuilder(h.uri(path)).timeout(WAIT).header("Authorization", "Bearer " + GatewayHarness.AGENT_TOKEN)
        .header("Sluice-Task", "inviter").header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body));
    return key == null ? b : b.header("Idempotency-Key", key);
  }

  private static JsonNode decide(GatewayHarness h, String id, String option) throws Exception {
    HttpResponse<String> r = h.send(HttpRequest.newBuilder(h.uri("/v1/escalations/" + id + "/decision")).timeout(WAIT)
        .header("Authorization", "Bearer " + GatewayHarness.OPERATOR_TOKEN).header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString("{\"option\":\"" + option + "\",\"by\":\"ops-ana\",\"reason\":\"after the restart\"}")));
    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    return JSON.readTree(r.body());
  }

  private static JsonNode onlyEscalation(GatewayHarness h) throws Exception {
    JsonNode list = JSON.readTree(h.get("/v1/escalations", GatewayHarness.OPERATOR_TOKEN).body()).path("escalations");
    assertThat(list).hasSize(1);
    return list.get(0);
  }

  private static List<Attempt> of(FakeProvider fake, String method) {
    return fake.attempts().stream().filter(a -> a.method().equals(method)).toList();
  }

  @Test
  void queryExistingDecidedAfterARestartSendsExactlyOneLookUpAndNothingElse() throws Exception {
    String routes = """
        routes:
          - {method: POST, path: "/records", class: uncertain_write, external_reference: client_reference,
             lookup: {method: GET, path: "/records?client_reference={external_reference}"}}
        """;
    // The write is saved and its answer lost; the first look-up meets a 503 whose Retry-After (100 s)
    // is past the look-up budget (90 s), so reconciliation stops at once, for a person.
    FakeProvider.Builder fake = FakeProvider.builder().idempotency("records", false)
        .fault(FaultRule.of(Fault.dropAfterCommit()).method("POST"))
        .fault(FaultRule.of(Fault.unavailable(100)).method("GET").path("/records").times(1));
    try (GatewayHarness h = new GatewayHarness(fake, routes, "", GatewayHarness.Options.defaults().dataDir(dir.resolve("data")))) {
      HttpResponse<String> r = h.send(agentPost(h, "/api/records", null, "{\"name\":\"ada\"}"));
      assertThat(r.statusCode()).as("the status table's answer for reconciliation_required").isEqualTo(424);
      assertThat(JSON.readTree(r.body()).path("outcome").asText()).isEqualTo("reconciliation_required");
      assertThat(of(h.fake, "POST")).hasSize(1);
      assertThat(of(h.fake, "GET")).extracting(Attempt::status).containsExactly(503);

      h.restart();
      JsonNode e = onlyEscalation(h);
      assertThat(e.path("trigger").asText()).isEqualTo("uncertain_write");
      assertThat(e.path("options").toString()).contains("query_existing");
      assertThat(of(h.fake, "GET")).as("the restart sent nothing by itself").hasSize(1);

      JsonNode decided = decide(h, e.path("id").asText(), "query_existing");
      String action = decided.path("action").asText();
      HttpResponse<String> done = h.send(HttpRequest.newBuilder(h.uri("/v1/actions/" + action)).timeout(WAIT)
          .header("Authorization", "Bearer " + GatewayHarness.OPERATOR_TOKEN).header("Prefer", "wait=20"));
      assertThat(done.statusCode()).as(done.body()).isBetween(200, 299);

      assertThat(of(h.fake, "GET")).as("exactly one look-up after the decision").extracting(Attempt::status).containsExactly(503, 200);
      assertThat(of(h.fake, "GET").get(1).query()).startsWith("client_reference=sr_");
      assertThat(of(h.fake, "POST")).as("nothing resent").hasSize(1);
      assertThat(h.fake.records("records")).hasSize(1);
    }
  }

  @Test
  void retrySameKeyDecidedAfterARestartResendsOnceWithTheOriginalKeyAndTheProviderDeduplicates() throws Exception {
    String routes = """
        idempotency_header: Idempotency-Key
        routes:
          - {method: POST, path: "/v1/transfers", class: uncertain_write}
        """;
    FakeProvider.Builder fake = FakeProvider.builder().fault(FaultRule.of(Fault.dropAfterCommit()).method("POST").nth(1));
    try (GatewayHarness h = new GatewayHarness(fake, routes, "", GatewayHarness.Options.defaults().dataDir(dir.resolve("data")))) {
      HttpResponse<String> r = h.send(agentPost(h, "/api/v1/transfers", "k-uncertain", "{\"amount\":5}"));
      assertThat(JSON.readTree(r.body()).path("outcome").asText()).isEqualTo("reconciliation_required");
      assertThat(h.fake.attempts()).hasSize(1);
      assertThat(h.fake.records("transfers")).hasSize(1);

      h.restart();
      JsonNode e = onlyEscalation(h);
      assertThat(e.path("trigger").asText()).isEqualTo("uncertain_write");
      assertThat(e.path("options").toString()).contains("retry_same_key").doesNotContain("query_existing");
      assertThat(h.fake.attempts()).as("the restart sent nothing by itself").hasSize(1);

      JsonNode decided = decide(h, e.path("id").asText(), "retry_same_key");
      String action = decided.path("action").asText();
      HttpResponse<String> done = h.send(HttpRequest.newBuilder(h.uri("/v1/actions/" + action)).timeout(WAIT)
          .header("Authorization", "Bearer " + GatewayHarness.OPERATOR_TOKEN).header("Prefer", "wait=20"));
      assertThat(done.statusCode()).as(done.body()).isBetween(200, 299);

      assertThat(h.fake.attempts()).as("one resend, with the original key").hasSize(2)
          .allSatisfy(a -> assertThat(a.idempotencyKey()).hasValue("k-uncertain"));
      assertThat(h.fake.records("transfers")).as("the provider deduplicated it").singleElement()
          .satisfies(rec -> assertThat(rec.idempotencyKey()).hasValue("k-uncertain"));
    }
  }
}
