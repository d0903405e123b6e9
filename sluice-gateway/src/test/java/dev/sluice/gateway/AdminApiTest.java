package dev.sluice.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.fake.FakeProvider;
import dev.sluice.fake.Fault;
import dev.sluice.fake.FaultRule;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The operator's API: scopes in the seed's shape, tasks, cancellation; closed to agents and strangers. */
class AdminApiTest {
  static final String ROUTE = "routes:\n  - {method: GET, path: \"/v1/invoices/{id}\", class: read}\n";

  @Test
  void scopesNeedTheOperatorTokenAndHaveTheSeedsShape() {
    try (GatewayHarness h = new GatewayHarness(FakeProvider.builder(), ROUTE)) {
      assertThat(h.get("/v1/scopes", null).statusCode()).isEqualTo(401);
      assertThat(h.get("/v1/scopes", GatewayHarness.AGENT_TOKEN).statusCode()).isEqualTo(401);
      HttpResponse<String> r = h.get("/v1/scopes", GatewayHarness.OPERATOR_TOKEN);
      assertThat(r.statusCode()).isEqualTo(200);
      assertThat(r.body()).contains("\"provider\":\"api\"", "\"scope\":\"account:acme\"", "\"request_class\"", "\"next_allowed_at\"",
          "\"remaining\"", "\"reset_after_seconds\"", "\"source\"");
    }
  }

  @Test
  void cancellingATaskStopsItsWaitingCallAndNothingMoreIsSent() {
    FakeProvider.Builder fake = FakeProvider.builder().fault(FaultRule.of(Fault.rateLimited(Duration.ofSeconds(30))).path("/v1/invoices/{id}"));
    try (GatewayHarness h = new GatewayHarness(fake, ROUTE)) {
      HttpResponse<String> accepted = h.send(HttpRequest.newBuilder(h.uri("/api/v1/invoices/inv_1")).header("Prefer", "wait=1")
          .header("Authorization", "Bearer " + GatewayHarness.AGENT_TOKEN).header("Sluice-Task", "doomed").header("Sluice-Task-Goal", "sync invoices"));
      assertThat(accepted.statusCode()).isEqualTo(202);
      HttpResponse<String> task = h.get("/v1/tasks/doomed", GatewayHarness.OPERATOR_TOKEN);
      assertThat(task.body()).contains("\"goal\":\"sync invoices\"", "\"state\":\"waiting\"");

      HttpResponse<String> cancel = h.send(HttpRequest.newBuilder(h.uri("/v1/tasks/doomed")).DELETE()
          .header("Authorization", "Bearer " + GatewayHarness.OPERATOR_TOKEN));
      assertThat(cancel.statusCode()).isEqualTo(200);
      assertThat(cancel.body()).contains("\"cancelled\":1");
      HttpResponse<String> action = h.get(accepted.headers().firstValue("Location").orElseThrow(), GatewayHarness.AGENT_TOKEN);
      assertThat(action.statusCode()).isEqualTo(409);
      assertThat(action.body()).contains("\"outcome\":\"cancelled\"");
      assertThat(action.headers().firstValue("Retry-After")).isEmpty();
      assertThat(h.fake.attempts()).hasSize(1);
    }
  }

  @Test
  void healthReadinessAndMetricsAnswerWithoutATokenAndMetricsSeparate429From503() {
    FakeProvider.Builder fake = FakeProvider.builder().fault(FaultRule.of(Fault.rateLimited(Duration.ofSeconds(1))).path("/v1/invoices/{id}"));
    try (GatewayHarness h = new GatewayHarness(fake, ROUTE)) {
      assertThat(h.get("/healthz", null).statusCode()).isEqualTo(200);
      assertThat(h.get("/readyz", null).statusCode()).isEqualTo(200);
      assertThat(h.get("/api/v1/invoices/inv_1", GatewayHarness.AGENT_TOKEN).statusCode()).isEqualTo(200);
      String metrics = h.get("/metrics", null).body();
      assertThat(metrics).contains("sluice_attempts_total{class=\"read\",provider=\"api\",scope=\"account:acme\",status=\"429\"} 1.0")
          .contains("sluice_attempts_total{class=\"read\",provider=\"api\",scope=\"account:acme\",status=\"200\"} 1.0")
          .contains("sluice_queue_depth{provider=\"api\",scope=\"account:acme\"}")
          .doesNotContain(GatewayHarness.SECRET);
    }
  }
}
