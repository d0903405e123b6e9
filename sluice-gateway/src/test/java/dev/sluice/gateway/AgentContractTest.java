package dev.sluice.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.sluice.fake.Attempt;
import dev.sluice.fake.FakeProvider;
import dev.sluice.fake.Fault;
import dev.sluice.fake.FaultRule;
import dev.sluice.fake.ScopeBy;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * The agent's side of the contract, counted at the fake provider: the agent's token never leaves,
 * the provider credential is injected, the provider's answer comes back with Sluice's headers, and
 * terminal outcomes are problem documents. Every response and log line is checked for the canary
 * secret and the agent token.
 */
class AgentContractTest {
  static final String ROUTES = """
      idempotency_header: Idempotency-Key
      routes:
        - {method: GET, path: "/v1/invoices/{id}", class: read}
        - {method: POST, path: "/v1/transfers", class: idempotent_write}
        - {method: GET, path: "/v1/balance", class: once}
      """;
  static final String TOP = """
      request_classes:
        read: {max_attempts: 4, max_wait_seconds: 90, retry_statuses: [408, 429, 500, 502, 503, 504]}
        idempotent_write: {max_attempts: 3, max_wait_seconds: 120, retry_statuses: [408, 429, 502, 503, 504]}
        uncertain_write: {max_attempts: 1, max_wait_seconds: 0, retry_statuses: []}
        once: {max_attempts: 1, max_wait_seconds: 0, retry_statuses: []}
      gateway: {max_request_body_bytes: 1000, max_request_headers: 40}
      """;

  GatewayHarness h;
  final List<HttpResponse<String>> seen = new ArrayList<>();
  final ListAppender<ILoggingEvent> logs = new ListAppender<>();

  @BeforeEach
  void start() {
    logs.start();
    ((Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME)).addAppender(logs);
  }

  @AfterEach
  void stopAndCheckTheCanary() {
    if (h != null) {
      h.close();
    }
    ((Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME)).detachAppender(logs);
    for (HttpResponse<String> r : seen) {
      assertThat(r.body() + r.headers().map()).doesNotContain(GatewayHarness.SECRET).doesNotContain(GatewayHarness.AGENT_TOKEN)
          .doesNotContain(GatewayHarness.OPERATOR_TOKEN);
    }
    for (ILoggingEvent e : logs.list) {
      String line = e.getFormattedMessage() + (e.getThrowableProxy() == null ? "" : e.getThrowableProxy().getMessage());
      assertThat(line).doesNotContain(GatewayHarness.SECRET).doesNotContain(GatewayHarness.AGENT_TOKEN).doesNotContain(GatewayHarness.OPERATOR_TOKEN);
    }
  }

  HttpResponse<String> call(HttpRequest.Builder b) {
    HttpResponse<String> r = h.send(b.header("Authorization", "Bearer " + GatewayHarness.AGENT_TOKEN).timeout(Duration.ofSeconds(30)));
    seen.add(r);
    return r;
  }

  HttpRequest.Builder get(String path) {
    return HttpRequest.newBuilder(h.uri(path));
  }

  @Test
  void aReadIsRelayedWithTheProviderCredentialInsteadOfTheAgentToken() {
    h = new GatewayHarness(FakeProvider.builder(), ROUTES, TOP);
    HttpResponse<String> r = call(get("/api/v1/invoices/inv_1?expand=lines").header("Sluice-Task", "t-1").header("X-Custom", "kept"));

    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(r.body()).contains("inv_1");
    // No journal in this harness: an in-memory id (a journaled action carries the journal's ULID).
    assertThat(r.headers().firstValue("Sluice-Action-Id")).hasValueSatisfying(id -> assertThat(id).matches("mem_[0-9a-f]{32}"));
    assertThat(r.headers().firstValue("Sluice-Attempts")).hasValue("1");
    assertThat(r.headers().firstValue("Content-Type")).hasValueSatisfying(ct -> assertThat(ct).startsWith("application/json"));
    assertThat(r.headers().allValues("Date")).as("one Date field, the gateway's").hasSize(1);
    Attempt a = h.fake.attempts().get(0);
    assertThat(a.scope()).isEqualTo(ScopeBy.credentialScope("Bearer " + GatewayHarness.SECRET));
    assertThat(a.path()).isEqualTo("/v1/invoices/inv_1");
    assertThat(a.query()).isEqualTo("expand=lines");
    assertThat(a.task()).as("tasks are namespaced per agent inside Sluice").hasValue("bot/t-1");
    assertThat(h.fake.attempts()).hasSize(1);
  }

  @Test
  void a429IsAbsorbedAndTheAgentSeesOneAnswerWithTwoAttempts() {
    h = new GatewayHarness(FakeProvider.builder().fault(FaultRule.of(Fault.rateLimited(Duration.ofSeconds(1))).path("/v1/invoices/{id}")), ROUTES, TOP);
    HttpResponse<String> r = call(get("/api/v1/invoices/inv_1"));

    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(r.headers().firstValue("Sluice-Attempts")).hasValue("2");
    assertThat(h.fake.attempts()).extracting(Attempt::status).containsExactly(429, 200);
  }

  @Test
  void aWriteCarriesTheAgentsIdempotencyKeyAndTheBody() {
    h = new GatewayHarness(FakeProvider.builder(), ROUTES, TOP);
    HttpResponse<String> r = call(HttpRequest.newBuilder(h.uri("/api/v1/transfers")).header("Content-Type", "application/json")
        .header("Idempotency-Key", "key-42").POST(HttpRequest.BodyPublishers.ofString("{\"amount\": 5}")));

    assertThat(r.statusCode()).isEqualTo(201);
    assertThat(h.fake.attempts()).singleElement().satisfies(a -> assertThat(a.idempotencyKey()).hasValue("key-42"));
    assertThat(h.fake.records("transfers")).hasSize(1);
  }

  @Test
  void aTerminalOutcomeIsAProblemDocumentWithItsContextAndNoRetryAfter() {
    h = new GatewayHarness(FakeProvider.builder().fault(FaultRule.of(Fault.unavailable()).path("/v1/balance")), ROUTES, TOP);
    HttpResponse<String> r = call(get("/api/v1/balance"));

    assertThat(r.statusCode()).isEqualTo(503);
    assertThat(r.headers().firstValue("Content-Type")).hasValue("application/problem+json");
    assertThat(r.headers().firstValue("x-should-retry")).hasValue("false");
    assertThat(r.headers().firstValue("Retry-After")).isEmpty();
    assertThat(r.body()).contains("\"type\":\"https://sluice.dev/problems/unavailable\"", "\"outcome\":\"unavailable\"", "\"request_sent\":true",
        "\"response_received\":true", "\"attempts\":1", "\"last_status\":503", "\"next_safe_action\"", "\"waited_seconds\"");
    assertThat(h.fake.attempts()).hasSize(1);
  }

  @Test
  void aBodyOverTheCapIs413AndNothingIsSent() {
    h = new GatewayHarness(FakeProvider.builder(), ROUTES, TOP);
    HttpResponse<String> r = call(HttpRequest.newBuilder(h.uri("/api/v1/transfers")).POST(HttpRequest.BodyPublishers.ofString("x".repeat(1001))));

    assertThat(r.statusCode()).isEqualTo(413);
    assertThat(r.body()).contains("body_too_large", "\"request_sent\":false");
    assertThat(h.fake.attempts()).isEmpty();
  }

  @Test
  void tooManyHeaderFieldsOrAnOversizedHeadAre431AndNothingIsSent() {
    h = new GatewayHarness(FakeProvider.builder(), ROUTES, TOP);
    HttpRequest.Builder many = get("/api/v1/invoices/inv_1");
    for (int i = 0; i < 50; i++) {
      many.header("X-Extra-" + i, "v");
    }
    assertThat(call(many).statusCode()).isEqualTo(431);
    HttpResponse<String> big = call(get("/api/v1/invoices/inv_1").header("X-Big", "y".repeat(20_000)));
    assertThat(big.statusCode()).isEqualTo(431);
    assertThat(big.headers().firstValue("Content-Type")).hasValue("application/problem+json");
    assertThat(h.fake.attempts()).isEmpty();
  }

  @Test
  void aResponseOverTheCapIsNotRelayed() {
    h = new GatewayHarness(FakeProvider.builder(), ROUTES, TOP.replace("max_request_headers: 40", "max_request_headers: 40, max_response_body_bytes: 16"));
    HttpResponse<String> r = call(get("/api/v1/balance"));

    assertThat(r.statusCode()).isGreaterThanOrEqualTo(400);
    assertThat(r.headers().firstValue("Content-Type")).hasValue("application/problem+json");
    assertThat(r.body()).doesNotContain("balance\":");
    assertThat(h.fake.attempts()).hasSize(1);
  }

  @Test
  void respondAsyncGives202AndTheActionAnswersWithTheProviderResponseOnceDone() {
    h = new GatewayHarness(FakeProvider.builder().fault(FaultRule.of(Fault.rateLimited(Duration.ofSeconds(1))).path("/v1/invoices/{id}")), ROUTES, TOP);
    HttpResponse<String> accepted = call(get("/api/v1/invoices/inv_2").header("Prefer", "respond-async").header("Sluice-Task", "async-1"));

    assertThat(accepted.statusCode()).isEqualTo(202);
    String location = accepted.headers().firstValue("Location").orElseThrow();
    assertThat(location).startsWith("/v1/actions/mem_");
    assertThat(accepted.body()).contains("\"task\":\"async-1\"", "\"state\":");
    HttpResponse<String> done = call(get(location).header("Prefer", "wait=20"));
    assertThat(done.statusCode()).isEqualTo(200);
    assertThat(done.body()).contains("inv_2");
    assertThat(done.headers().firstValue("Sluice-Attempts")).hasValue("2");
    assertThat(h.fake.attempts()).hasSize(2);
  }

  @Test
  void aWaitBeyondPreferWaitGives202WithTheDueTime() {
    h = new GatewayHarness(FakeProvider.builder().fault(FaultRule.of(Fault.rateLimited(Duration.ofSeconds(30))).path("/v1/invoices/{id}")), ROUTES, TOP);
    HttpResponse<String> r = call(get("/api/v1/invoices/inv_1").header("Prefer", "wait=1"));

    assertThat(r.statusCode()).isEqualTo(202);
    assertThat(r.body()).contains("\"state\":\"waiting\"", "\"due_at\":\"");
    assertThat(r.headers().firstValue("Retry-After")).isPresent();
    assertThat(h.fake.attempts()).hasSize(1);
  }

  @Test
  void anAnswerDeliveredToTheWaitingCallIsNotKeptButItsOutcomeIs() {
    h = new GatewayHarness(FakeProvider.builder().fault(FaultRule.of(Fault.rateLimited(Duration.ofSeconds(1))).path("/v1/invoices/{id}")), ROUTES, TOP);
    HttpResponse<String> r = call(get("/api/v1/invoices/inv_3").header("Sluice-Task", "kept-1"));
    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(r.body()).contains("inv_3");
    String id = r.headers().firstValue("Sluice-Action-Id").orElseThrow();

    // The agent has the body; asking again gives the outcome's context, not a second copy of it. (The gateway
    // lets go of the body once its answer is written out, which may finish just after the client read it.)
    HttpResponse<String> later = call(get("/v1/actions/" + id));
    for (long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos(); !later.body().contains("response_body_kept")
        && System.nanoTime() < deadline; ) {
      later = call(get("/v1/actions/" + id));
    }
    assertThat(later.statusCode()).isEqualTo(200);
    assertThat(later.headers().firstValue("Content-Type")).hasValueSatisfying(ct -> assertThat(ct).startsWith("application/json"));
    assertThat(later.body()).contains("\"id\":\"" + id + "\"", "\"state\":\"done\"", "\"outcome\":\"succeeded\"", "\"attempts\":2",
        "\"last_status\":200", "\"response_body_kept\":false").doesNotContain("inv_3\",\"amount");
    assertThat(h.fake.attempts()).extracting(Attempt::status).containsExactly(429, 200); // nothing was sent again
  }
}
