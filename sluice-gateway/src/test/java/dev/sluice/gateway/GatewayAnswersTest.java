package dev.sluice.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.fake.Attempt;
import dev.sluice.fake.FakeProvider;
import dev.sluice.fake.Fault;
import dev.sluice.fake.FaultRule;
import java.net.InetAddress;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * What agents get back in the less common cases, counted at the fake provider: no 202 unless
 * asked, an over-cap answer as its own non-retryable result, retry hints only where waiting helps,
 * a same-host absolute-form target refused, a provider host that resolves to a link-local address
 * refused at connect time, and the metrics for those events.
 */
class GatewayAnswersTest {
  static final String ROUTES = """
      idempotency_header: Idempotency-Key
      routes:
        - {method: GET, path: "/v1/invoices/{id}", class: read, immutable: true}
        - {method: POST, path: "/v1/transfers", class: idempotent_write}
        - {method: GET, path: "/v1/balance", class: once}
      """;
  static final String TOP = """
      request_classes:
        read: {max_attempts: 4, max_wait_seconds: 90, retry_statuses: [408, 429, 500, 502, 503, 504]}
        idempotent_write: {max_attempts: 3, max_wait_seconds: 120, retry_statuses: [408, 429, 502, 503, 504]}
        uncertain_write: {max_attempts: 1, max_wait_seconds: 0, retry_statuses: []}
        once: {max_attempts: 1, max_wait_seconds: 0, retry_statuses: []}
      """;

  private static HttpResponse<String> agent(GatewayHarness h, HttpRequest.Builder b) {
    return h.send(b.header("Authorization", "Bearer " + GatewayHarness.AGENT_TOKEN).timeout(Duration.ofSeconds(30)));
  }

  /**
   * The old gateway answered 202 after a default wait; now only Prefer asks for one. The connector's
   * idle timeout (1 s here) is shorter than the wait (the provider's Retry-After: 3): the answer still
   * comes on the same connection. (Jetty 12 does not cut a request whose handler is pending on its own
   * either; the gateway also tells it to ignore the idle timeout while waiting.)
   */
  @Test
  void withoutPreferTheConnectionStaysOpenUntilTheOutcomeEvenPastTheIdleTimeoutAndNo202() {
    FakeProvider.Builder fake = FakeProvider.builder().fault(FaultRule.of(Fault.rateLimited(Duration.ofSeconds(3))).path("/v1/invoices/{id}"));
    GatewayHarness.Options o = GatewayHarness.Options.defaults().gateway(g -> g.idleTimeout(Duration.ofSeconds(1)));
    try (GatewayHarness h = new GatewayHarness(fake, ROUTES, TOP, o)) {
      HttpResponse<String> r = agent(h, HttpRequest.newBuilder(h.uri("/api/v1/invoices/inv_1")));
      assertThat(r.statusCode()).as("the answer, not a 202 and not a cut connection").isEqualTo(200);
      assertThat(r.headers().firstValue("Sluice-Attempts")).hasValue("2");
      assertThat(h.fake.attempts()).extracting(Attempt::status).containsExactly(429, 200);
    }
  }

  @Test
  void aResponseOverTheCapIsItsOwnNonRetryableResultNotOutcomeUnknown() {
    String top = TOP + "gateway: {max_response_body_bytes: 16}\n";
    try (GatewayHarness h = new GatewayHarness(FakeProvider.builder(), ROUTES, top)) {
      HttpResponse<String> read = agent(h, HttpRequest.newBuilder(h.uri("/api/v1/invoices/inv_1")));
      assertThat(read.statusCode()).isEqualTo(502);
      assertThat(read.headers().firstValue("x-should-retry")).hasValue("false");
      assertThat(read.headers().firstValue("Retry-After")).isEmpty();
      assertThat(read.body()).contains("\"type\":\"https://sluice.dev/problems/response_too_large\"", "\"provider_status\":200",
          "\"outcome\":\"succeeded\"", "\"attempts\":1").doesNotContain("inv_1\"");

      HttpResponse<String> write = agent(h, HttpRequest.newBuilder(h.uri("/api/v1/transfers")).header("Content-Type", "application/json")
          .header("Idempotency-Key", "k-big").POST(HttpRequest.BodyPublishers.ofString("{\"amount\": 5}")));
      assertThat(write.statusCode()).as("a status no common client repeats").isEqualTo(424);
      assertThat(write.body()).contains("response_too_large", "the write took effect", "\"provider_status\":201", "do not send this write again");
      // One attempt each: neither was retried nor reconciled as if its outcome were unknown.
      assertThat(h.fake.attempts()).extracting(a -> a.method() + " " + a.status()).containsExactly("GET 200", "POST 201");
      assertThat(h.fake.records("transfers")).hasSize(1);
      assertThat(h.get("/metrics", null).body()).contains("sluice_gateway_refusals_total{reason=\"response_too_large\"} 2.0");
    }
  }

  @Test
  void aRateLimitThatOutlastsTheBudgetKeepsTheProvidersRetryHintWhileAnUnknownWriteGetsNone() {
    FakeProvider.Builder fake = FakeProvider.builder().fault(FaultRule.of(Fault.rateLimited(Duration.ofSeconds(40))).path("/v1/balance"));
    try (GatewayHarness h = new GatewayHarness(fake, ROUTES, TOP)) {
      HttpResponse<String> limited = agent(h, HttpRequest.newBuilder(h.uri("/api/v1/balance")));
      assertThat(limited.statusCode()).isEqualTo(429);
      assertThat(limited.headers().firstValue("x-should-retry")).hasValue("false");
      // Waiting is the next safe action: Retry-After is the provider's hint, as the scope's hold.
      assertThat(limited.headers().firstValue("Retry-After")).hasValueSatisfying(v -> assertThat(Long.parseLong(v)).isBetween(35L, 40L));
      assertThat(limited.headers().allValues("Retry-After")).hasSize(1);

      assertThat(h.fake.attempts()).filteredOn(a -> a.path().equals("/v1/balance")).hasSize(1);
    }
    // A write whose answer was lost (no look-up configured): its outcome is unknown, and waiting is no remedy.
    String noLookup = ROUTES.replace("class: idempotent_write", "class: once");
    try (GatewayHarness h = new GatewayHarness(FakeProvider.builder().fault(FaultRule.of(Fault.dropAfterCommit()).method("POST")), noLookup, TOP)) {
      HttpResponse<String> unknown = agent(h, HttpRequest.newBuilder(h.uri("/api/v1/transfers")).header("Idempotency-Key", "k-lost")
          .POST(HttpRequest.BodyPublishers.ofString("{\"amount\": 5}")));
      assertThat(unknown.statusCode()).isEqualTo(424);
      assertThat(unknown.headers().firstValue("x-should-retry")).hasValue("false");
      assertThat(unknown.headers().firstValue("Retry-After")).as("never for a write whose effect is unknown").isEmpty();
      assertThat(h.fake.attempts()).hasSize(1);
    }
  }

  @Test
  void aSameHostAbsoluteFormTargetIsRefusedAndNothingIsSent() {
    try (GatewayHarness h = new GatewayHarness(FakeProvider.builder(), ROUTES, TOP)) {
      String self = h.gateway.uri().getAuthority();
      String answer = h.raw("GET http://" + self + "/api/v1/invoices/inv_1 HTTP/1.1\r\nHost: " + self + "\r\nAuthorization: Bearer "
          + GatewayHarness.AGENT_TOKEN + "\r\nConnection: close\r\n\r\n");
      assertThat(answer).startsWith("HTTP/1.1 400").contains("application/problem+json", "not_a_proxy", "\"request_sent\":false");
      // The same call in origin form goes through: the refusal is about the form, nothing else.
      String origin = h.raw("GET /api/v1/invoices/inv_1 HTTP/1.1\r\nHost: " + self + "\r\nAuthorization: Bearer " + GatewayHarness.AGENT_TOKEN
          + "\r\nConnection: close\r\n\r\n");
      assertThat(origin).startsWith("HTTP/1.1 200");
      assertThat(h.fake.attempts()).hasSize(1);
    }
  }

  /**
   * The provider's host is resolved by a resolver the test controls (no hosts file, no DNS):
   * once to the loopback fake (control: the call arrives), once to a metadata address listed
   * before the loopback one — without the guard the client would connect to the reachable fake,
   * so its empty log shows the refusal happened at connect time, on the resolved address.
   */
  @Test
  void aProviderHostThatResolvesToALinkLocalAddressIsRefusedAtConnectTime() {
    String once = ROUTES.replace("class: read, immutable: true", "class: once");
    try (GatewayHarness control = new GatewayHarness(FakeProvider.builder(), once, TOP, GatewayHarness.Options.defaults()
        .transport(t -> t.withHostResolver(host -> List.of(InetAddress.getLoopbackAddress()))))) {
      assertThat(agent(control, HttpRequest.newBuilder(control.uri("/api/v1/invoices/inv_1"))).statusCode()).isEqualTo(200);
      assertThat(control.fake.attempts()).hasSize(1);
    }
    try (GatewayHarness h = new GatewayHarness(FakeProvider.builder(), once, TOP, GatewayHarness.Options.defaults()
        .transport(t -> t.withHostResolver(host -> List.of(InetAddress.getLoopbackAddress(), InetAddress.getByName("169.254.169.254")))))) {
      HttpResponse<String> r = agent(h, HttpRequest.newBuilder(h.uri("/api/v1/invoices/inv_1")));
      assertThat(r.statusCode()).isGreaterThanOrEqualTo(500);
      assertThat(r.body()).contains("\"request_sent\":false");
      assertThat(h.fake.attempts()).isEmpty();
    }
  }

  @Test
  void metricsCountBudgetExhaustionsCoalescedReadsAndEscalations() throws Exception {
    FakeProvider.Builder fake = FakeProvider.builder().fault(FaultRule.of(Fault.unavailable()).path("/v1/balance").always())
        .fault(FaultRule.of(Fault.hold()).path("/v1/invoices/{id}").nth(1));
    String twice = ROUTES.replace("path: \"/v1/balance\", class: once", "path: \"/v1/balance\", class: twice");
    String top = TOP + "  twice: {max_attempts: 2, max_wait_seconds: 30, retry_statuses: [503]}\n";
    try (GatewayHarness h = new GatewayHarness(fake, twice, top)) {
      HttpResponse<String> exhausted = agent(h, HttpRequest.newBuilder(h.uri("/api/v1/balance")));
      assertThat(exhausted.statusCode()).isEqualTo(503);
      assertThat(exhausted.body()).contains("\"outcome\":\"budget_exhausted\"");
      // Two identical reads of an immutable resource while the first is held: one attempt, shared.
      CompletableFuture<HttpResponse<String>> first = CompletableFuture.supplyAsync(
          () -> agent(h, HttpRequest.newBuilder(h.uri("/api/v1/invoices/inv_1")).header("Sluice-Task", "t9a")));
      assertThat(h.fake.awaitHeld(1, Duration.ofSeconds(30))).isTrue();
      CompletableFuture<HttpResponse<String>> second = CompletableFuture.supplyAsync(
          () -> agent(h, HttpRequest.newBuilder(h.uri("/api/v1/invoices/inv_1")).header("Sluice-Task", "t9b")));
      awaitTaskKnown(h, "t9b");
      h.fake.releaseHeld();
      assertThat(first.get(30, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
      assertThat(second.get(30, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
      h.gateway.countEscalation("api");

      String metrics = h.get("/metrics", null).body();
      assertThat(metrics).contains("sluice_budget_exhaustions_total{provider=\"api\"} 1.0")
          .contains("sluice_coalesced_reads_total{provider=\"api\"} 1.0")
          .contains("sluice_escalations_total{provider=\"api\"} 1.0")
          .contains("sluice_attempts_total{class=\"twice\",provider=\"api\",scope=\"account:acme\",status=\"503\"} 2.0");
      assertThat(h.fake.attempts()).filteredOn(a -> a.path().equals("/v1/invoices/inv_1")).hasSize(1);
    }
  }

  /** Waits until the gateway has started an action of the task (its task view answers 200). */
  private static void awaitTaskKnown(GatewayHarness h, String task) throws InterruptedException {
    long end = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    while (h.get("/v1/tasks/" + task, GatewayHarness.AGENT_TOKEN).statusCode() != 200) {
      if (System.nanoTime() > end) {
        throw new AssertionError("task " + task + " never appeared");
      }
      Thread.sleep(20);
    }
  }
}
