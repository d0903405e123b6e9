package dev.sluice.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import dev.sluice.fake.Attempt;
import dev.sluice.fake.FakeProvider;
import dev.sluice.fake.Fault;
import dev.sluice.fake.FaultRule;
import dev.sluice.fake.StoredRecord;
import java.net.InetSocketAddress;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The seed's five steps (issue 6's acceptance) through real HTTP: agent tasks in separate threads
 * with the JDK HttpClient, and an agent using curl, call the gateway exactly as they would call the
 * provider (only the base URL and the token differ); every count is taken at the fake provider,
 * with the assertions of the engine, durable-actions and escalation acceptance tests
 * (SeedSequenceAtTheFakeProviderTest, DurableWritesAtTheFakeProviderTest,
 * EscalationsAtTheFakeProviderTest). Steps 1–3: one 429 holds the whole scope, then the three
 * reads succeed spread out. Step 4: a write whose connection drops after the provider saved it is
 * reconciled by its key, also across a gateway restart. Step 5: the time budget runs out, the
 * operator gets the redacted dossier (admin API and webhook), cancels, and the cancelled work
 * never wakes. Wall-clock delays are a few seconds; waits are futures, latches and bounded polls.
 */
class SeedSequenceThroughTheGatewayTest {
  static final String READ_ROUTE = """
      shared_scope: {max_delayed_requests: 25, max_concurrent_requests: 2}
      routes:
        - {method: GET, path: "/v1/invoices/{id}", class: read}
      """;

  static final ObjectMapper JSON = new ObjectMapper();
  static final Duration WAIT = Duration.ofSeconds(30);
  static final String HOOK_SECRET = "hook-secret-5b0e4d2a91";
  static final String STEP4_ROUTES = """
      idempotency_header: Idempotency-Key
      shared_scope: {max_concurrent_requests: 1}
      routes:
        - {method: POST, path: "/v1/transfers", class: idempotent_write,
           lookup: {method: GET, path: "/v1/transfers?idempotency_key={idempotency_key}"}}
      """;

  private static HttpRequest.Builder agent(GatewayHarness h, String path, String task) {
    return HttpRequest.newBuilder(h.uri(path)).timeout(WAIT).header("Authorization", "Bearer " + GatewayHarness.AGENT_TOKEN).header("Sluice-Task", task);
  }

  private static HttpRequest.Builder agentGet(GatewayHarness h, String path) {
    return HttpRequest.newBuilder(h.uri(path)).timeout(WAIT).header("Authorization", "Bearer " + GatewayHarness.AGENT_TOKEN);
  }

  private static HttpRequest.Builder transfer(GatewayHarness h, String key, String task, int amount) {
    return agent(h, "/api/v1/transfers", task).header("Content-Type", "application/json").header("Idempotency-Key", key)
        .POST(HttpRequest.BodyPublishers.ofString("{\"amount\": " + amount + ", \"currency\": \"USD\"}"));
  }

  /** No form of the provider credential, no Authorization header, no request body value. */
  private static void assertRedacted(String text) {
    byte[] secret = GatewayHarness.SECRET.getBytes(StandardCharsets.UTF_8);
    for (String form : List.of(GatewayHarness.SECRET, Base64.getEncoder().encodeToString(secret), Base64.getUrlEncoder().encodeToString(secret),
        java.net.URLEncoder.encode(GatewayHarness.SECRET, StandardCharsets.UTF_8), GatewayHarness.AGENT_TOKEN, GatewayHarness.OPERATOR_TOKEN)) {
      assertThat(text).doesNotContain(form);
    }
    assertThat(text.toLowerCase(java.util.Locale.ROOT)).doesNotContain("authorization");
  }

  private static void awaitTrue(BooleanSupplier condition) throws InterruptedException {
    long end = System.nanoTime() + WAIT.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > end) {
        throw new AssertionError("condition not met within " + WAIT);
      }
      Thread.sleep(20);
    }
  }

  @Test
  void seedSteps1To3ThreeAgentThreadsOneScopeOne429TheWholeScopeWaitsThenAllSucceedSpread() throws Exception {
    FakeProvider.Builder fake = FakeProvider.builder().fault(FaultRule.of(Fault.rateLimited(Duration.ofSeconds(1))).path("/v1/invoices/{id}"));
    try (GatewayHarness h = new GatewayHarness(fake, READ_ROUTE); ExecutorService agents = Executors.newFixedThreadPool(3)) {
      List<Future<HttpResponse<String>>> answers = List.of("task-1", "task-2", "task-3").stream()
          .map(task -> agents.submit(() -> h.send(HttpRequest.newBuilder(h.uri("/api/v1/invoices/inv_1")).timeout(Duration.ofSeconds(30))
              .header("Authorization", "Bearer " + GatewayHarness.AGENT_TOKEN).header("Sluice-Task", task))))
          .toList();
      List<HttpResponse<String>> responses = new java.util.ArrayList<>();
      for (Future<HttpResponse<String>> f : answers) {
        responses.add(f.get(30, TimeUnit.SECONDS));
      }

      assertThat(responses).allSatisfy(r -> {
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.body()).contains("inv_1");
      });
      List<Attempt> attempts = h.fake.attempts();
      assertThat(attempts).hasSize(4);
      Attempt first = attempts.get(0);
      assertThat(first.status()).isEqualTo(429);
      Instant heldUntil = first.arrivedAt().plusSeconds(1);
      assertThat(attempts.subList(1, 4)).allSatisfy(a -> {
        assertThat(a.status()).isEqualTo(200);
        assertThat(a.arrivedAt()).isAfterOrEqualTo(heldUntil);
      });
      assertThat(attempts.subList(1, 4)).extracting(a -> a.task().orElseThrow()).containsExactlyInAnyOrder("bot/task-1", "bot/task-2", "bot/task-3");
      assertThat(attempts.subList(1, 4)).extracting(Attempt::arrivedAt).doesNotHaveDuplicates();
      // What the agents were told matches what the provider saw.
      int told = responses.stream().mapToInt(r -> Integer.parseInt(r.headers().firstValue("Sluice-Attempts").orElseThrow())).sum();
      assertThat(told).isEqualTo(attempts.size());
    }
  }

  @Test
  void curlWorksUnchangedApartFromTheBaseUrlAndTheToken() throws Exception {
    FakeProvider.Builder fake = FakeProvider.builder().fault(FaultRule.of(Fault.rateLimited(Duration.ofSeconds(1))).path("/v1/invoices/{id}"));
    try (GatewayHarness h = new GatewayHarness(fake, READ_ROUTE)) {
      Process p = new ProcessBuilder("curl", "-s", "-i", "--max-time", "30", "-H", "Authorization: Bearer " + GatewayHarness.AGENT_TOKEN,
          h.gateway.uri() + "/api/v1/invoices/inv_3").redirectErrorStream(true).start();
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      assertThat(p.waitFor(40, TimeUnit.SECONDS)).isTrue();

      assertThat(out).startsWith("HTTP/1.1 200").containsIgnoringCase("sluice-attempts: 2").contains("inv_3");
      assertThat(h.fake.attempts()).extracting(Attempt::status).containsExactly(429, 200);
    }
  }

  @Test
  void seedStep4AWriteWhoseConnectionDropsAfterTheProviderSavedItIsReconciledByKeyAndTheAgentGetsSuccess(@TempDir Path dir) {
    FakeProvider.Builder fake = FakeProvider.builder().fault(FaultRule.of(Fault.dropAfterCommit()).method("POST").nth(1));
    try (GatewayHarness h = new GatewayHarness(fake, STEP4_ROUTES, "", GatewayHarness.Options.defaults().dataDir(dir.resolve("data")))) {
      HttpResponse<String> r = h.send(transfer(h, "k-drop", "sync-482", 5));

      assertThat(r.statusCode()).isBetween(200, 299);
      assertThat(r.headers().firstValue("Sluice-Outcome")).hasValue("succeeded");
      assertThat(r.headers().firstValue("Sluice-Attempts")).hasValue("2");
      List<Attempt> seen = h.fake.attempts();
      assertThat(seen).extracting(Attempt::method).containsExactly("POST", "GET");
      assertThat(seen.get(0).result()).isEqualTo(Attempt.Result.DROPPED);
      assertThat(seen.get(1).query()).isEqualTo("idempotency_key=k-drop");
      assertThat(h.fake.records("transfers")).singleElement().satisfies(rec -> assertThat(rec.idempotencyKey()).hasValue("k-drop"));
      assertThat(h.get("/metrics", null).body()).contains("sluice_reconciliations_total{provider=\"api\",result=\"found\"} 1.0");
    }
  }

  @Test
  void seedStep4RestartVariantTheGatewayDiesWithTheWriteAtTheProviderAndTheNextOneReconcilesItsLocation(@TempDir Path dir) throws Exception {
    FakeProvider.Builder fake = FakeProvider.builder().fault(FaultRule.of(Fault.hold()).method("POST").nth(1));
    try (GatewayHarness h = new GatewayHarness(fake, STEP4_ROUTES, "", GatewayHarness.Options.defaults().dataDir(dir.resolve("data")))) {
      HttpResponse<String> accepted = h.send(transfer(h, "k-crash", "sync-482", 5).header("Prefer", "respond-async"));
      assertThat(accepted.statusCode()).isEqualTo(202);
      String location = accepted.headers().firstValue("Location").orElseThrow();
      assertThat(h.fake.awaitHeld(1, WAIT)).isTrue();
      h.gateway.sluice().crashForTesting(); // as if the process died with the request at the provider
      h.gateway.close();
      h.fake.releaseHeld(); // the provider saves the transfer; nobody hears the answer
      awaitTrue(() -> h.fake.records("transfers").size() == 1);

      h.gateway = h.startGateway();
      HttpResponse<String> done = h.send(agentGet(h, location).header("Prefer", "wait=20"));
      assertThat(done.statusCode()).isBetween(200, 299);
      assertThat(done.headers().firstValue("Sluice-Outcome")).hasValue("succeeded");
      assertThat(h.fake.attempts()).extracting(Attempt::method).containsExactly("POST", "GET");
      assertThat(h.fake.attempts().get(1).query()).isEqualTo("idempotency_key=k-crash");
      assertThat(h.fake.records("transfers")).singleElement().satisfies(rec -> assertThat(rec.idempotencyKey()).hasValue("k-crash"));
    }
  }

  static final String STEP5_ROUTES = """
      idempotency_header: Idempotency-Key
      shared_scope: {max_delayed_requests: 25, max_concurrent_requests: 2}
      routes:
        - {method: GET, path: "/v1/reports/{id}", class: report}
        - {method: POST, path: "/v1/transfers", class: idempotent_write,
           lookup: {method: GET, path: "/v1/transfers?idempotency_key={idempotency_key}"}}
      """;
  /** The report class's time budget (2 s) is shorter than the provider's Retry-After (4 s). */
  static final String STEP5_TOP = """
      request_classes:
        read: {max_attempts: 4, max_wait_seconds: 90, retry_statuses: [408, 429, 500, 502, 503, 504]}
        idempotent_write: {max_attempts: 3, max_wait_seconds: 120, retry_statuses: [408, 429, 502, 503, 504]}
        uncertain_write: {max_attempts: 1, max_wait_seconds: 0, retry_statuses: []}
        report: {max_attempts: 4, max_wait_seconds: 2, retry_statuses: [429, 503]}
      """;

  @Test
  void seedStep5TheTimeBudgetIsExhaustedTheOperatorGetsTheRedactedDossierAndTheCancelledWorkNeverWakes(@TempDir Path dir) throws Exception {
    List<String> hookBodies = java.util.Collections.synchronizedList(new ArrayList<>());
    CountDownLatch hooked = new CountDownLatch(1);
    HttpServer hook = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    hook.createContext("/hook", x -> {
      hookBodies.add(new String(x.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
      x.sendResponseHeaders(204, -1);
      x.close();
      hooked.countDown();
    });
    hook.start();
    String top = STEP5_TOP + "escalation:\n  webhook: {url: \"http://127.0.0.1:" + hook.getAddress().getPort()
        + "/hook\", secret_env: HOOK_SECRET}\n";
    FakeProvider.Builder fake = FakeProvider.builder()
        .fault(FaultRule.of(Fault.rateLimited(Duration.ofSeconds(4))).method("GET").path("/v1/reports/{id}"));
    GatewayHarness.Options options = GatewayHarness.Options.defaults().dataDir(dir.resolve("data")).env(Map.of("HOOK_SECRET", HOOK_SECRET));
    try (GatewayHarness h = new GatewayHarness(fake, STEP5_ROUTES, top, options); ExecutorService agents = Executors.newFixedThreadPool(3)) {
      // Agent task 1 (thread 1): the report read meets a 429 whose Retry-After is past its time budget.
      HttpResponse<String> read = agents.submit(() -> h.send(agent(h, "/api/v1/reports/q3", "nightly-sync")
          .header("Sluice-Task-Goal", "reconcile last night's invoices"))).get(30, TimeUnit.SECONDS);
      assertThat(read.statusCode()).isEqualTo(429);
      assertThat(read.headers().firstValue("Content-Type")).hasValueSatisfying(ct -> assertThat(ct).startsWith("application/problem+json"));
      assertThat(read.headers().firstValue("x-should-retry")).hasValue("false");
      JsonNode problem = JSON.readTree(read.body());
      assertThat(problem.path("outcome").asText()).isEqualTo("budget_exhausted");
      assertThat(problem.path("detail").asText()).contains("escalated to an operator as E-1");
      assertThat(h.fake.attempts()).as("the report was sent once and not repeated").hasSize(1);
      Instant heldUntil = h.fake.attempts().get(0).arrivedAt().plusSeconds(4);

      // The same task's write (thread 2) is accepted and waits behind the scope's hold; another
      // task's write (thread 3) waits on its open connection.
      HttpResponse<String> accepted = agents.submit(() -> h.send(transfer(h, "k-nightly", "nightly-sync", 12500).header("Prefer", "respond-async")))
          .get(30, TimeUnit.SECONDS);
      assertThat(accepted.statusCode()).isEqualTo(202);
      String location = accepted.headers().firstValue("Location").orElseThrow();
      Instant due = Instant.parse(JSON.readTree(accepted.body()).path("due_at").asText());
      assertThat(due).as("due after the hold the provider asked for").isAfterOrEqualTo(heldUntil.minusMillis(1));
      Future<HttpResponse<String>> payroll = agents.submit(() -> h.send(transfer(h, "k-payroll", "payroll", 900)));
      awaitTrue(() -> h.get("/v1/tasks/payroll", GatewayHarness.OPERATOR_TOKEN).statusCode() == 200);

      // The operator gets the dossier through the admin API, and the webhook gets the same one.
      JsonNode listed = JSON.readTree(h.get("/v1/escalations?state=open", GatewayHarness.OPERATOR_TOKEN).body()).path("escalations");
      assertThat(listed).hasSize(1);
      String id = listed.get(0).path("id").asText();
      assertThat(id).isEqualTo("E-1");
      HttpResponse<String> shown = h.get("/v1/escalations/" + id, GatewayHarness.OPERATOR_TOKEN);
      assertThat(shown.statusCode()).isEqualTo(200);
      JsonNode e = JSON.readTree(shown.body());
      assertThat(e.path("trigger").asText()).isEqualTo("wait_budget_exhausted");
      assertThat(e.path("state").asText()).isEqualTo("open");
      JsonNode dossier = e.path("dossier");
      assertThat(dossier.toString()).contains("reconcile last night's invoices", "bot/nightly-sync", "/v1/reports/{id}");
      assertThat(dossier.path("method").asText()).isEqualTo("GET");
      assertThat(dossier.path("attempts")).hasSize(1);
      assertThat(dossier.path("attempts").get(0).path("status").asInt()).isEqualTo(429);
      assertThat(dossier.path("attempts").get(0).toString()).contains("retry-after", "\"4\"");
      assertThat(e.path("options").findValuesAsText("option")).containsExactly("retry_same_key", "cancel");
      assertRedacted(shown.body());
      assertThat(h.get("/v1/escalations/" + id, GatewayHarness.AGENT_TOKEN).statusCode()).as("not for agents").isEqualTo(401);

      assertThat(hooked.await(30, TimeUnit.SECONDS)).as("the webhook was called").isTrue();
      JsonNode delivered = JSON.readTree(hookBodies.get(0));
      assertThat(delivered.path("event").asText()).isEqualTo("escalated");
      assertThat(delivered.path("escalation").path("id").asText()).isEqualTo(id);
      assertThat(delivered.path("escalation").path("trigger").asText()).isEqualTo("wait_budget_exhausted");
      assertThat(delivered.path("escalation").path("dossier").path("goal").asText()).isEqualTo("reconcile last night's invoices");
      assertRedacted(hookBodies.get(0));
      assertThat(hookBodies.get(0)).doesNotContain(HOOK_SECRET);

      // The operator cancels; the task's waiting write is cancelled before it wakes.
      HttpResponse<String> decided = h.send(HttpRequest.newBuilder(h.uri("/v1/escalations/" + id + "/decision")).timeout(WAIT)
          .header("Authorization", "Bearer " + GatewayHarness.OPERATOR_TOKEN).header("Content-Type", "application/json")
          .POST(HttpRequest.BodyPublishers.ofString("{\"option\":\"cancel\",\"by\":\"ops-ana\",\"reason\":\"the sync can wait for tonight\"}")));
      assertThat(decided.statusCode()).isEqualTo(200);
      HttpResponse<String> cancelled = h.send(agentGet(h, location).header("Prefer", "wait=20"));
      assertThat(JSON.readTree(cancelled.body()).path("outcome").asText()).isEqualTo("cancelled");
      assertThat(JSON.readTree(cancelled.body()).path("request_sent").asBoolean()).isFalse();

      // The other task's write, queued behind the same hold, is sent; the provider's log is read
      // only once the cancelled write's original due time is past (plus a second).
      HttpResponse<String> paid = payroll.get(30, TimeUnit.SECONDS);
      assertThat(paid.statusCode()).isEqualTo(201);
      awaitTrue(() -> Instant.now().isAfter(due.plusSeconds(1)));
      List<Attempt> seen = h.fake.attempts();
      assertThat(seen).as("the cancelled task's write never woke; the other task's did")
          .extracting(a -> a.method() + " " + a.task().orElse("?") + " " + a.status())
          .containsExactly("GET bot/nightly-sync 429", "POST bot/payroll 201");
      assertThat(seen.get(1).arrivedAt()).as("the other task's write also waited for the hold").isAfterOrEqualTo(heldUntil.minusMillis(1));
      assertThat(h.fake.records("transfers")).extracting(StoredRecord::idempotencyKey).containsExactly(Optional.of("k-payroll"));
      JsonNode after = JSON.readTree(h.get("/v1/escalations/" + id, GatewayHarness.OPERATOR_TOKEN).body());
      assertThat(after.path("state").asText()).isEqualTo("decided");
      assertThat(after.path("decision").path("option").asText()).isEqualTo("cancel");
      assertThat(after.path("decision").path("by").asText()).isEqualTo("ops-ana (operator operator)"); // the name given, and who held the token
    } finally {
      hook.stop(0);
    }
  }
}
