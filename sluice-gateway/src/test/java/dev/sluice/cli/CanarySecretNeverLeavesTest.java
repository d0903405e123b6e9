package dev.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.IThrowableProxy;
import ch.qos.logback.core.read.ListAppender;
import dev.sluice.core.Call;
import dev.sluice.core.Sluice;
import dev.sluice.core.audit.AuditKeys;
import dev.sluice.core.engine.Outcome;
import dev.sluice.core.policy.ListenAddress;
import dev.sluice.core.policy.Policy;
import dev.sluice.core.policy.PolicyLoader;
import dev.sluice.core.transport.TransportSettings;
import dev.sluice.fake.FakeProvider;
import dev.sluice.fake.Fault;
import dev.sluice.fake.FaultRule;
import dev.sluice.gateway.Gateway;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * No secret leaves Sluice (DESIGN.md §6, issue #7 "Never a credential", issue #6): a canary secret
 * is planted as a provider credential ({@code secret_env}); every scenario the suite can reach runs
 * through the gateway and the library (seed steps 1–4: a 429 with Retry-After held on the whole
 * scope, an uncertain write reconciled by its key; refused requests; a provider's 401; problem
 * answers; {@code /metrics}, {@code /v1/scopes}, the admin endpoints, the audit export; the audit
 * CLI; the demo); then every file under the data directories (SQLite files, WAL, audit segments,
 * anchor), every log line at DEBUG (logback, the project's slf4j binding, with the shipped
 * {@code org.eclipse.jetty: WARN}), and every HTTP response's status line, headers and body are
 * searched for the canary: raw, URL-encoded, hex, and base64 / base64url at every alignment, of the
 * secret and of {@code Bearer <secret>} (see {@link CanarySecret}). Agent and operator tokens and
 * the audit signing key are searched too. Escalations: an uncertain write escalated, its dossier
 * through the admin API and {@code sluice escalations list|show}, the audited body view (API and
 * CLI), a refused and an accepted decision (API and {@code sluice decide}), and the webhook's
 * deliveries (body and headers) as a local HTTP server received them; the webhook's secret is
 * searched for as well; the demo's JSON includes step 5's dossier.
 *
 * <p>The provider side (the fake provider, which legitimately receives the credential) is not
 * searched: it is the third party, not Sluice.
 *
 * <p>Adding a surface: add a {@link Scenario} to {@link #SCENARIOS}. Everything it sends through
 * {@link World} is collected and searched.
 */
class CanarySecretNeverLeavesTest {
  static final String CANARY = "canary-" + UUID.randomUUID().toString().replace("-", "") + "-do-not-leak";
  static final String AGENT_TOKEN = "agent-token-" + UUID.randomUUID();
  static final String OPERATOR_TOKEN = "operator-token-" + UUID.randomUUID();
  static final String AUDITOR_TOKEN = "auditor-token-" + UUID.randomUUID();
  static final String HOOK_SECRET = "hook-secret-" + UUID.randomUUID();
  static final String DEMO_SECRET = "demo-secret"; // the credential `sluice demo` plants in its own fake provider

  /** One reachable surface, exercised through the world's collecting clients. */
  @FunctionalInterface
  interface Scenario {
    void run(World w) throws Exception;
  }

  /** Every scenario, in order. Add new surfaces (escalation dossiers, decisions, the console) here. */
  static final List<Scenario> SCENARIOS = List.of(
      CanarySecretNeverLeavesTest::seedStepsOneToThree,
      CanarySecretNeverLeavesTest::seedStepFourUncertainWriteReconciled,
      CanarySecretNeverLeavesTest::problemAnswers,
      CanarySecretNeverLeavesTest::providerRejectsTheCredential,
      CanarySecretNeverLeavesTest::refusedRequests,
      CanarySecretNeverLeavesTest::adminAndOperationalEndpoints,
      CanarySecretNeverLeavesTest::theLibrary,
      CanarySecretNeverLeavesTest::escalationsDossiersDecisionsAndTheWebhook,
      CanarySecretNeverLeavesTest::theAuditCli,
      CanarySecretNeverLeavesTest::theDemo);

  @TempDir Path tmp;

  final ListAppender<ILoggingEvent> logs = new ListAppender<>();
  Level rootLevel;

  @BeforeEach
  void captureEveryLogLine() {
    Logger root = (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
    rootLevel = root.getLevel();
    root.setLevel(Level.DEBUG); // SLUICE_LOG_LEVEL=DEBUG, the most a user can ask for; org.eclipse.jetty stays WARN as shipped
    logs.start();
    root.addAppender(logs);
  }

  @AfterEach
  void restoreLogging() {
    Logger root = (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
    root.detachAppender(logs);
    root.setLevel(rootLevel);
  }

  @Test
  void theSearchFindsTheCanaryInEveryFormEvenInsideALargerEncodedBlob() {
    CanarySecret c = CanarySecret.of("canary", CANARY);
    for (String prefix : List.of("", "a", "ab", "Authorization: ")) {
      byte[] blob = (prefix + "Bearer " + CANARY + " trailing").getBytes(StandardCharsets.UTF_8);
      assertThat(c.foundIn("x" + java.util.Base64.getEncoder().encodeToString(blob) + "y")).as("prefix '%s'", prefix).isPresent();
      assertThat(c.foundIn(java.util.Base64.getUrlEncoder().withoutPadding().encodeToString(blob))).isPresent();
    }
    assertThat(c.foundIn("q=" + java.net.URLEncoder.encode("Bearer " + CANARY, StandardCharsets.UTF_8))).isPresent();
    assertThat(c.foundIn("nothing here")).isEmpty();
  }

  @Test
  void theCanaryNeverLeavesThroughAnyResponseLogLineOrFile() throws Exception {
    try (World w = new World(tmp)) {
      for (Scenario s : SCENARIOS) {
        s.run(w);
      }
      w.close(); // flushes the journal and the audit log (final checkpoint) before the files are read
      List<CanarySecret> secrets = List.of(CanarySecret.of("canary", CANARY), CanarySecret.of("agent token", AGENT_TOKEN),
          CanarySecret.of("operator token", OPERATOR_TOKEN), CanarySecret.of("auditor token", AUDITOR_TOKEN),
          CanarySecret.of("webhook secret", HOOK_SECRET),
          CanarySecret.of("audit signing key", AuditKeys.privatePem(w.signing.getPrivate()).lines().filter(l -> !l.startsWith("-----")).findFirst()
              .orElseThrow()));
      CanarySecret demo = CanarySecret.of("demo credential", DEMO_SECRET);

      List<String> leaks = new ArrayList<>();
      // Sanity: the scenarios really ran, so the search below is over real material.
      assertThat(w.responses).hasSizeGreaterThan(25);
      assertThat(w.fake.attempts()).hasSizeGreaterThan(8);
      assertThat(w.fake.records("transfers")).as("the gateway's uncertain write was reconciled, not duplicated")
          .filteredOn(r -> r.json().contains("\"amount\":5")).hasSize(1);
      List<Path> files = w.files();
      assertThat(files).extracting(p -> p.getFileName().toString()).contains("sluice.db", "audit-000001.log", "audit-head.json");
      assertThat(logs.list).hasSizeGreaterThan(10);

      for (Map.Entry<String, String> r : w.responses) {
        for (CanarySecret s : secrets) {
          s.foundIn(r.getValue()).ifPresent(f -> leaks.add(f + " in the response to " + r.getKey()));
        }
      }
      for (ILoggingEvent e : logs.list) {
        if (e.getLoggerName().startsWith("dev.sluice.fake")) {
          continue; // the provider's side
        }
        String line = e.getLoggerName() + " " + e.getFormattedMessage() + throwableText(e.getThrowableProxy());
        for (CanarySecret s : secrets) {
          s.foundIn(line).ifPresent(f -> leaks.add(f + " in the log line of " + e.getLoggerName() + ": " + e.getMessage()));
        }
        demo.foundIn(line).ifPresent(f -> leaks.add(f + " in the log line of " + e.getLoggerName() + ": " + e.getMessage()));
      }
      for (Path f : files) {
        String bytes = new String(Files.readAllBytes(f), StandardCharsets.ISO_8859_1); // byte-for-byte; the forms are ASCII
        for (CanarySecret s : secrets) {
          s.foundIn(bytes).ifPresent(x -> leaks.add(x + " in the file " + tmp.relativize(f)));
        }
      }
      for (String out : w.demoOutput) {
        demo.foundIn(out).ifPresent(f -> leaks.add(f + " in the output of sluice demo"));
      }
      assertThat(leaks).as("secrets that left Sluice").isEmpty();
    }
  }

  private static String throwableText(IThrowableProxy t) {
    StringBuilder b = new StringBuilder();
    for (IThrowableProxy p = t; p != null; p = p.getCause()) {
      b.append(' ').append(p.getClassName()).append(": ").append(p.getMessage());
    }
    return b.toString();
  }

  // ---------------------------------------------------------------- scenarios

  /** Seed steps 1–3: three tasks on one scope; the first read gets 429 Retry-After: 1; the scope waits; all succeed. */
  static void seedStepsOneToThree(World w) throws Exception {
    try (ExecutorService agents = Executors.newFixedThreadPool(3)) {
      List<Future<HttpResponse<String>>> f = new ArrayList<>();
      for (String task : List.of("task-1", "task-2", "task-3")) {
        f.add(agents.submit(() -> w.agent(w.request("/api/v1/invoices/inv_1").header("Sluice-Task", task).header("Sluice-Task-Goal", "sync"))));
      }
      for (Future<HttpResponse<String>> x : f) {
        assertThat(x.get(60, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
      }
    }
    assertThat(w.fake.attempts()).extracting(a -> a.status()).contains(429);
  }

  /** Seed step 4: a write dropped after the provider committed it is looked up by its key, not sent again. */
  static void seedStepFourUncertainWriteReconciled(World w) {
    HttpResponse<String> r = w.agent(w.request("/api/v1/transfers").header("Sluice-Task", "t-write").header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString("{\"amount\":5,\"currency\":\"USD\"}")));
    assertThat(r.statusCode()).isBetween(200, 299);
  }

  /** A terminal outcome as problem+json (503 on a class that allows one attempt), and a Prefer: wait=0 accepted action. */
  static void problemAnswers(World w) {
    assertThat(w.agent(w.request("/api/v1/balance").header("Sluice-Task", "t-balance")).statusCode()).isEqualTo(503);
    HttpResponse<String> accepted = w.agent(w.request("/api/v1/slow/1").header("Prefer", "wait=0").header("Sluice-Task", "t-slow"));
    if (accepted.statusCode() == 202) {
      String location = accepted.headers().firstValue("Location").orElseThrow();
      w.agent(w.request(location));
      w.operator(location, OPERATOR_TOKEN);
    }
  }

  /** The provider refuses the credential: 401 from the provider, whatever Sluice makes of it. */
  static void providerRejectsTheCredential(World w) {
    HttpResponse<String> r = w.agent(w.request("/strict/v1/invoices/inv_1").header("Sluice-Task", "t-strict"));
    assertThat(r.statusCode()).isEqualTo(401);
  }

  /** Refused before anything is sent: no token, a wrong token, a provider not allowed, a body too big, traversal, CONNECT, absolute form. */
  static void refusedRequests(World w) {
    w.send("no token", HttpRequest.newBuilder(w.uri("/api/v1/invoices/inv_1")));
    w.send("a wrong token", HttpRequest.newBuilder(w.uri("/api/v1/invoices/inv_1")).header("Authorization", "Bearer " + CANARY.substring(0, 20)));
    w.agent(w.request("/other/v1/x"));
    w.agent(w.request("/nope/v1/x"));
    w.agent(w.request("/api/v1/transfers").POST(HttpRequest.BodyPublishers.ofString("x".repeat(2000))));
    w.raw("GET /api/%2e%2e/v1/x HTTP/1.1\r\nHost: " + w.gateway.uri().getAuthority() + "\r\nAuthorization: Bearer " + AGENT_TOKEN
        + "\r\nConnection: close\r\n\r\n");
    w.raw("CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n");
    w.raw("GET http://169.254.169.254/latest/meta-data HTTP/1.1\r\nHost: 169.254.169.254\r\nAuthorization: Bearer " + AGENT_TOKEN
        + "\r\nConnection: close\r\n\r\n");
  }

  /** The operator's and the operational endpoints, including the audit export. */
  static void adminAndOperationalEndpoints(World w) throws Exception {
    for (String p : List.of("/healthz", "/readyz", "/metrics")) {
      w.operator(p, null);
    }
    for (String p : List.of("/v1/scopes", "/v1/tasks/t-write", "/v1/tasks/task-1", "/v1/tasks/none", "/v1/nothing", "/v1/audit")) {
      w.operator(p, OPERATOR_TOKEN);
    }
    w.operator("/v1/scopes", AGENT_TOKEN);
    w.operator("/v1/audit", AGENT_TOKEN);
    w.send("DELETE /v1/tasks/t-none", HttpRequest.newBuilder(w.uri("/v1/tasks/t-none")).DELETE().header("Authorization", "Bearer " + OPERATOR_TOKEN));
    // The audit trail appends on its own thread: wait (bounded) until the write's records are exported.
    long end = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    while (!w.operator("/v1/audit?task=t-write", AUDITOR_TOKEN).body().contains("action_result")) {
      assertThat(System.nanoTime()).as("the write's audit records within 10 s").isLessThan(end);
      Thread.sleep(20);
    }
    w.operator("/v1/audit?after_seq=0&limit=10000", AUDITOR_TOKEN);
    w.operator("/v1/scopes", AUDITOR_TOKEN);
    w.operator("/v1/audit?bogus=1", AUDITOR_TOKEN);
  }

  /** The library on its own data_dir, with an audit block: outcomes, their texts, scopes and the policy's text. */
  static void theLibrary(World w) throws Exception {
    Policy policy = PolicyLoader.parse(w.yaml(w.tmp.resolve("library-data")), "library.yaml");
    try (Sluice sluice = Sluice.builder().policy(policy).journalFromPolicy().secrets(w.env()).auditFromPolicy(w.env()).build()) {
      List<CompletableFuture<Outcome>> calls = List.of(
          sluice.submit(Call.get("api", "/v1/invoices/inv_2", "lib-read")),
          sluice.submit(Call.get("api", "/v1/balance", "lib-balance")),
          sluice.submit(Call.get("strict", "/v1/invoices/inv_2", "lib-strict")),
          sluice.submit(Call.builder("api", "POST", "/v1/transfers").task("lib-write").header("Content-Type", "application/json")
              .body("{\"amount\":7}").build()));
      for (CompletableFuture<Outcome> c : calls) {
        Outcome o = c.get(60, TimeUnit.SECONDS);
        w.collect("library outcome " + o.taskId(), o.toString() + " " + o.reason());
      }
      w.collect("library scopes", sluice.scopes().toString());
      w.collect("library policy", sluice.policy().toString());
    }
  }

  /**
   * An uncertain write (no key, no look-up) is escalated: its dossier through the admin API and the
   * CLI, the audited body view, a refused send_new (no confirmation), the cancel decision (CLI),
   * and the webhook's deliveries as the local server received them.
   */
  static void escalationsDossiersDecisionsAndTheWebhook(World w) throws Exception {
    // uncertain_write allows no wait at all (max_wait_seconds: 0): let the earlier scenarios' calls
    // leave the scope's two concurrency slots first, or this write ends wait_budget_exhausted (503)
    // before it is sent (seen once in CI). Bounded poll on the engine's own counts.
    long free = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    while (w.gateway.sluice().inFlight("api") > 0 || !w.gateway.sluice().queue("api").isEmpty()) {
      assertThat(System.nanoTime()).as("the scope drained within 30 s").isLessThan(free);
      Thread.sleep(10);
    }
    HttpResponse<String> r = w.agent(w.request("/api/v1/records").header("Sluice-Task", "t-escalate").header("Sluice-Task-Goal", "invite ada")
        .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString("{\"name\":\"ada\",\"email\":\"ada@example.com\"}")));
    assertThat(r.statusCode()).isEqualTo(424);
    com.fasterxml.jackson.databind.JsonNode list = new com.fasterxml.jackson.databind.ObjectMapper()
        .readTree(w.operator("/v1/escalations", OPERATOR_TOKEN).body()).path("escalations");
    String id = java.util.stream.StreamSupport.stream(list.spliterator(), false).filter(e -> e.path("task").asText().equals("bot/t-escalate"))
        .findFirst().orElseThrow().path("id").asText();
    w.operator("/v1/escalations?state=open", OPERATOR_TOKEN);
    assertThat(w.operator("/v1/escalations/" + id, OPERATOR_TOKEN).body()).contains("invite ada", "uncertain_write", "top_level_fields");
    w.operator("/v1/escalations/" + id, AUDITOR_TOKEN);
    w.operator("/v1/escalations/" + id, AGENT_TOKEN);
    w.operator("/v1/escalations/E-99", OPERATOR_TOKEN);
    assertThat(w.adminPost("/v1/escalations/" + id + "/body", "{\"by\":\"ops-ana\",\"reason\":\"check the address\"}").statusCode())
        .isEqualTo(200);
    assertThat(w.adminPost("/v1/escalations/" + id + "/decision", "{\"option\":\"send_new\",\"by\":\"ops-ana\",\"reason\":\"no record\"}")
        .statusCode()).as("send_new without confirmation is refused").isEqualTo(422);
    w.cli(new EscalationsCommand.ListCommand(), c -> c.admin);
    w.cli(new EscalationsCommand.ListCommand(), c -> c.admin, "--json");
    assertThat(w.cli(new EscalationsCommand.ShowCommand(), c -> c.admin, id)).startsWith("0 ").contains("POST /v1/records");
    w.cli(new EscalationsCommand.ShowCommand(), c -> c.admin, id, "--json");
    assertThat(w.cli(new EscalationsCommand.BodyCommand(), c -> c.admin, id, "--by", "ops-ana", "--reason", "check the name"))
        .startsWith("0 ").contains("ada@example.com");
    assertThat(w.cli(new DecideCommand(), c -> c.admin, id, "--option", "cancel", "--by", "ops-ana", "--reason", "invite by hand", "--json"))
        .startsWith("0 ");
    w.operator("/v1/escalations/" + id, OPERATOR_TOKEN);
    assertThat(w.hooked.await(30, TimeUnit.SECONDS)).as("the webhook received the escalation").isTrue();
    synchronized (w.hookDeliveries) {
      assertThat(w.hookDeliveries).anySatisfy(d -> assertThat(d).contains("\"id\":\"" + id + "\"", "Sluice-signature"));
      for (String d : w.hookDeliveries) {
        w.collect("webhook delivery", d);
      }
    }
  }

  /** The audit CLI over the gateway's log: verify, tail, show (human and JSON). */
  static void theAuditCli(World w) throws Exception {
    Path pub = w.tmp.resolve("audit.pub");
    Files.writeString(pub, AuditKeys.publicPem(w.signing.getPublic()));
    Path dir = w.dataDir.resolve("audit");
    for (String[] args : List.of(new String[] {"audit", "verify", dir.toString()}, new String[] {"audit", "tail", "-n", "1000", dir.toString()},
        new String[] {"audit", "tail", "-n", "1000", "--json", dir.toString()}, new String[] {"audit", "show", "--task", "t-write", dir.toString()})) {
      CliRun r = CliRun.of(args);
      w.collect("sluice " + String.join(" ", args), r.exit() + " " + r.out() + r.err());
    }
  }

  /** {@code sluice demo --json}: its own fake provider and credential; searched for that credential. */
  static void theDemo(World w) {
    CliRun r = CliRun.of("demo", "--json", "--retry-after", "1");
    assertThat(r.exit()).as(r.err()).isZero();
    assertThat(r.out()).as("step 5's dossier is in the JSON").contains("\"escalations\"").contains("wait_budget_exhausted");
    w.demoOutput.add(r.out() + r.err());
    w.collect("sluice demo --json", r.out() + r.err());
  }

  // ---------------------------------------------------------------- the world

  /** A fake provider, a strict one (401 to the canary), a gateway with journal and audit in data_dir; collects every answer. */
  static final class World implements AutoCloseable {
    final Path tmp;
    final Path dataDir;
    final FakeProvider fake;
    final FakeProvider strict;
    final Gateway gateway;
    final KeyPair signing = AuditKeys.generate();
    final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    final List<Map.Entry<String, String>> responses = java.util.Collections.synchronizedList(new ArrayList<>());
    final List<String> demoOutput = new ArrayList<>();
    /** What the escalation webhook's local server received: headers and body of each delivery. */
    final List<String> hookDeliveries = java.util.Collections.synchronizedList(new ArrayList<>());
    final java.util.concurrent.CountDownLatch hooked = new java.util.concurrent.CountDownLatch(1);
    final com.sun.net.httpserver.HttpServer hook;
    private boolean closed;

    World(Path tmp) {
      this.tmp = tmp;
      this.dataDir = tmp.resolve("data");
      this.fake = FakeProvider.builder()
          .fault(FaultRule.of(Fault.rateLimited(Duration.ofSeconds(1))).path("/v1/invoices/{id}").nth(1))
          .fault(FaultRule.of(Fault.dropAfterCommit()).method("POST").path("/v1/transfers").nth(1))
          .fault(FaultRule.of(Fault.unavailable()).path("/v1/balance").always())
          .fault(FaultRule.of(Fault.latency(Duration.ofMillis(300))).path("/v1/slow/{id}").always())
          .fault(FaultRule.of(Fault.dropAfterCommit()).method("POST").path("/v1/records").always())
          .start();
      this.strict = FakeProvider.builder().acceptCredentials("Bearer someone-else-entirely").start();
      try {
        this.hook = com.sun.net.httpserver.HttpServer.create(new java.net.InetSocketAddress("127.0.0.1", 0), 0);
      } catch (IOException e) {
        throw new IllegalStateException(e);
      }
      hook.createContext("/hook", x -> {
        hookDeliveries.add(x.getRequestHeaders() + "\n" + new String(x.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
        x.sendResponseHeaders(204, -1);
        x.close();
        hooked.countDown();
      });
      hook.start();
      Policy policy = PolicyLoader.parse(yaml(dataDir), "canary.yaml");
      this.gateway = Gateway.builder(policy).env(env()).listen(new ListenAddress("127.0.0.1", 0)).stopTimeout(Duration.ofSeconds(1))
          .sluice(Sluice.builder().random(7).secrets(env()).journalFromPolicy().auditFromPolicy(env()))
          .transportSettings(TransportSettings.defaults().withTaskHeader("Sluice-Task"))
          .start();
    }

    java.util.function.Function<String, Optional<String>> env() {
      Map<String, String> env = new HashMap<>(Map.of("API_TOKEN", CANARY, "BOT_TOKEN", AGENT_TOKEN, "OPS_TOKEN", OPERATOR_TOKEN,
          "AUDITOR_TOKEN", AUDITOR_TOKEN, "AUDIT_SIGN", AuditKeys.privatePem(signing.getPrivate()), "HOOK_SECRET", HOOK_SECRET));
      return n -> Optional.ofNullable(env.get(n));
    }

    String yaml(Path data) {
      return """
          data_dir: "%s"
          operator: {token_env: OPS_TOKEN}
          operators:
            - {id: auditor, token_env: AUDITOR_TOKEN, permissions: [audit_read, read]}
          audit: {signing_key_env: AUDIT_SIGN, checkpoint_every: 5}
          gateway: {max_request_body_bytes: 1000}
          escalation:
            webhook: {url: "http://127.0.0.1:%d/hook", secret_env: HOOK_SECRET}
          request_classes:
            read: {max_attempts: 4, max_wait_seconds: 90, retry_statuses: [408, 429, 500, 502, 503, 504]}
            idempotent_write: {max_attempts: 3, max_wait_seconds: 120, retry_statuses: [408, 429, 502, 503, 504]}
            uncertain_write: {max_attempts: 1, max_wait_seconds: 0, retry_statuses: []}
            once: {max_attempts: 1, max_wait_seconds: 0, retry_statuses: []}
          providers:
            api:
              base_url: %s
              credential: {header: Authorization, format: "Bearer {secret}", secret_env: API_TOKEN}
              scope: account:acme
              shared_scope: {max_delayed_requests: 25, max_concurrent_requests: 2}
              idempotency_header: Idempotency-Key
              routes:
                - {method: GET, path: "/v1/invoices/{id}", class: read}
                - {method: POST, path: "/v1/transfers", class: idempotent_write,
                   lookup: {method: GET, path: "/v1/transfers?idempotency_key={idempotency_key}"}}
                - {method: GET, path: "/v1/balance", class: once}
                - {method: POST, path: "/v1/records", class: uncertain_write}
            strict:
              base_url: %s
              credential: {header: Authorization, format: "Bearer {secret}", secret_env: API_TOKEN}
            other:
              base_url: %s
          agents:
            - {id: bot, token_env: BOT_TOKEN, providers: [api, strict]}
          """.formatted(data.toString().replace("\\", "/"), hook.getAddress().getPort(), fake.baseUri(), strict.baseUri(), fake.baseUri());
    }

    java.net.URI uri(String path) {
      return java.net.URI.create(gateway.uri() + path);
    }

    HttpRequest.Builder request(String path) {
      return HttpRequest.newBuilder(uri(path));
    }

    HttpResponse<String> agent(HttpRequest.Builder b) {
      return send("agent", b.header("Authorization", "Bearer " + AGENT_TOKEN));
    }

    HttpResponse<String> operator(String path, String token) {
      HttpRequest.Builder b = request(path);
      if (token != null) {
        b.header("Authorization", "Bearer " + token);
      }
      return send("GET " + path, b);
    }

    HttpResponse<String> send(String what, HttpRequest.Builder b) {
      HttpRequest req = b.timeout(Duration.ofSeconds(60)).build();
      try {
        HttpResponse<String> r = http.send(req, HttpResponse.BodyHandlers.ofString());
        collect(what + " " + req.method() + " " + req.uri().getPath(), r.statusCode() + " " + r.headers().map() + "\n" + r.body());
        return r;
      } catch (IOException e) {
        throw new IllegalStateException(e);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      }
    }

    /** Raw bytes a well-behaved client would never send; the whole answer (status line, headers, body) is collected. */
    void raw(String request) {
      try (Socket s = new Socket(gateway.uri().getHost(), gateway.uri().getPort())) {
        s.setSoTimeout(10_000);
        OutputStream out = s.getOutputStream();
        out.write(request.getBytes(StandardCharsets.ISO_8859_1));
        out.flush();
        InputStream in = s.getInputStream();
        collect("raw " + request.lines().findFirst().orElse(""), new String(in.readAllBytes(), StandardCharsets.ISO_8859_1));
      } catch (IOException e) {
        collect("raw " + request.lines().findFirst().orElse(""), "connection error " + e.getClass().getSimpleName());
      }
    }

    HttpResponse<String> adminPost(String path, String json) {
      return send("POST " + path, request(path).header("Authorization", "Bearer " + OPERATOR_TOKEN).header("Content-Type", "application/json")
          .POST(HttpRequest.BodyPublishers.ofString(json)));
    }

    /** Runs an admin CLI command against this gateway with the operator token "exported"; collects and returns "exit out err". */
    <C extends java.util.concurrent.Callable<Integer>> String cli(C command, java.util.function.Function<C, AdminClient> admin, String... args) {
      admin.apply(command).env = n -> Optional.of(OPERATOR_TOKEN);
      picocli.CommandLine c = new picocli.CommandLine(command);
      java.io.StringWriter out = new java.io.StringWriter();
      java.io.StringWriter err = new java.io.StringWriter();
      c.setOut(new java.io.PrintWriter(out, true));
      c.setErr(new java.io.PrintWriter(err, true));
      c.setExecutionExceptionHandler((ex, cl, pr) -> {
        cl.getErr().println(ex.getMessage());
        return 2;
      });
      String[] all = Stream.concat(java.util.Arrays.stream(args), Stream.of("--url", gateway.uri().toString())).toArray(String[]::new);
      String result = c.execute(all) + " " + out + err;
      collect("sluice " + command.getClass().getSimpleName() + " " + String.join(" ", args), result);
      return result;
    }

    void collect(String what, String text) {
      responses.add(Map.entry(what, text));
    }

    /** Every regular file under the temporary folder's data directories. */
    List<Path> files() throws IOException {
      try (Stream<Path> s = Files.walk(tmp)) {
        return s.filter(Files::isRegularFile).filter(p -> !p.getFileName().toString().endsWith(".pub")).toList();
      }
    }

    @Override
    public void close() {
      if (closed) {
        return;
      }
      closed = true;
      gateway.close();
      fake.close();
      strict.close();
      hook.stop(0);
    }
  }
}
