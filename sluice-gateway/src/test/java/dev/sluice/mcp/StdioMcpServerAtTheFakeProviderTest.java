package dev.sluice.mcp;

import static dev.sluice.mcp.McpChecks.map;
import static dev.sluice.mcp.McpChecks.structured;
import static dev.sluice.mcp.McpChecks.text;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.core.Sluice;
import dev.sluice.core.escalation.Escalation;
import dev.sluice.core.escalation.EscalationId;
import dev.sluice.core.escalation.EscalationJson;
import dev.sluice.core.escalation.Trigger;
import dev.sluice.core.journal.ActionId;
import dev.sluice.core.journal.ActionState;
import dev.sluice.core.policy.PolicyLoader;
import dev.sluice.fake.Attempt;
import dev.sluice.fake.FakeProvider;
import dev.sluice.fake.Fault;
import dev.sluice.fake.FaultRule;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpAsyncClient;
import reactor.core.publisher.Flux;
import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.spec.McpSchema;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The acceptance test of issue 9: the SDK's own MCP client drives {@code sluice mcp} — a child JVM
 * running {@code SluiceCli mcp --config ... --agent bot}, real JSON-RPC over its stdin and stdout —
 * through the seed's steps 1–5 against the fake provider, on the embedded SQLite journal in the
 * policy's data_dir. Everything is counted at the fake provider. Step 5: the configured time
 * budget runs out, the model is given the escalation's id, the operator finds the redacted
 * dossier in the journal once the server has exited, and the cancelled work never wakes.
 */
class StdioMcpServerAtTheFakeProviderTest {
  static final String SECRET = "canary-secret-mcp-5b0e7c1d";

  @TempDir Path dir;

  @Test
  void seedStepsOneToFiveThroughTheStdioServerCountedAtTheFakeProvider() throws Exception {
    FaultRule first429 = FaultRule.of(Fault.rateLimited(Duration.ofSeconds(1))).path("/v1/invoices/{id}");
    FaultRule firstPostDropped = FaultRule.of(Fault.dropAfterCommit()).method("POST").path("/v1/transfers");
    try (FakeProvider fake = FakeProvider.builder().fault(first429).fault(firstPostDropped).start()) {
      Path config = writePolicy(dir, fake);
      List<String> stderr = new CopyOnWriteArrayList<>();
      McpAsyncClient client = stdioClient(config, "bot", Map.of("API_TOKEN", SECRET), stderr);
      String escalationId;
      String budgetReadId;
      String cancelledWriteId;
      int sentWhileServing;
      try {
        // Generous: a child JVM on a loaded 2-core machine may take long to start; nothing here waits on time otherwise.
        McpSchema.InitializeResult init = client.initialize().block(Duration.ofSeconds(180));
        assertThat(init.serverInfo().name()).isEqualTo("sluice");
        McpChecks mcp = new McpChecks(client);
        assertThat(mcp.outputSchemas()).containsOnlyKeys("http_request", "action_status", "cancel_task", "list_scopes", "list_providers");
        assertThat(mcp.outputSchemas().values()).allSatisfy(s -> assertThat(s).isNotNull().containsKey("properties"));

        // The model plans: its providers only, and the write route is reconciled and idempotent.
        McpSchema.CallToolResult providers = mcp.call("list_providers", Map.of());
        assertThat(providers.isError()).isFalse();
        List<Map<String, Object>> ps = (List<Map<String, Object>>) structured(providers).get("providers");
        assertThat(ps).extracting(p -> p.get("id")).containsExactly("api");
        List<Map<String, Object>> routes = (List<Map<String, Object>>) ps.get(0).get("routes");
        assertThat(routes).anySatisfy(r -> {
          assertThat(r).containsEntry("method", "POST").containsEntry("path", "/v1/transfers").containsEntry("request_class", "idempotent_write")
              .containsEntry("reconciled", true).containsEntry("idempotent", true).containsEntry("write", true);
        });

        // Steps 1-3: three tasks read the same invoice on one scope; the first read gets 429 Retry-After: 1.
        // The three calls are in flight together (one MCP session, three JSON-RPC requests outstanding).
        List<McpSchema.CallToolResult> reads = Flux.merge(List.of("task-1", "task-2", "task-3").stream()
            .map(task -> mcp.callAsync("http_request", Map.of("provider", "api", "method", "GET", "path", "/v1/invoices/inv_1", "task", task,
                "goal", "reconcile invoice inv_1")))
            .toList()).collectList().block(Duration.ofSeconds(90));
        assertThat(reads).allSatisfy(r -> {
          assertThat(r.isError()).as(text(r)).isFalse();
          Map<String, Object> s = structured(r);
          assertThat(s).containsEntry("state", "done").containsEntry("outcome", "succeeded").containsEntry("provider", "api");
          Map<String, Object> response = map(s.get("response"));
          assertThat(response).containsEntry("status", 200).containsEntry("body_format", "json").containsEntry("truncated", false);
          assertThat(map(response.get("body"))).containsEntry("id", "inv_1");
          assertThat(map(s.get("scope"))).containsEntry("scope", "account:acme");
        });
        List<Attempt> invoiceAttempts = fake.attempts();
        assertThat(invoiceAttempts).hasSize(4);
        assertThat(invoiceAttempts.get(0).status()).isEqualTo(429);
        Instant heldUntil = invoiceAttempts.get(0).arrivedAt().plusSeconds(1);
        assertThat(invoiceAttempts.subList(1, 4)).allSatisfy(a -> {
          assertThat(a.status()).isEqualTo(200);
          assertThat(a.arrivedAt()).isAfterOrEqualTo(heldUntil); // the whole scope waited, not only the task that got the 429
        });
        assertThat(invoiceAttempts.subList(1, 4)).extracting(Attempt::arrivedAt).doesNotHaveDuplicates(); // spread, not a burst
        // What the model was told adds up to what the provider saw.
        assertThat(reads.stream().mapToInt(r -> (Integer) structured(r).get("attempts")).sum()).isEqualTo(invoiceAttempts.size());
        assertThat(reads).anySatisfy(r -> assertThat((Double) structured(r).get("waited_seconds")).isGreaterThan(0.5));

        McpSchema.CallToolResult scopes = mcp.call("list_scopes", Map.of("provider", "api"));
        Map<String, Object> scope = ((List<Map<String, Object>>) structured(scopes).get("scopes")).get(0);
        assertThat(scope).containsEntry("provider", "api").containsEntry("scope", "account:acme").containsEntry("queued", 0);
        assertThat((String) scope.get("source")).isNotEqualTo("no response yet");

        // Step 4: a transfer; the provider saves it and drops the connection; Sluice looks it up by its key.
        int before = fake.attempts().size();
        McpSchema.CallToolResult write = mcp.call("http_request", Map.of("provider", "api", "method", "POST", "path", "/v1/transfers",
            "task", "task-4", "body", Map.of("source", "acct_17", "destination", "acct_42", "amount", 12500, "currency", "USD")));
        assertThat(write.isError()).as(text(write)).isFalse();
        Map<String, Object> w = structured(write);
        assertThat(w).containsEntry("outcome", "succeeded").containsEntry("reconciled", true).containsEntry("request_sent", true);
        assertThat(text(write)).contains("exactly once").contains("Do not send it again");
        List<Attempt> writeAttempts = fake.attempts().subList(before, fake.attempts().size());
        assertThat(writeAttempts).extracting(Attempt::method).containsExactly("POST", "GET");
        assertThat(writeAttempts.get(0).result()).isEqualTo(Attempt.Result.DROPPED);
        assertThat(w.get("attempts")).isEqualTo(writeAttempts.size());
        String key = (String) w.get("idempotency_key");
        assertThat(key).startsWith("sk_");
        assertThat(writeAttempts.get(0).idempotencyKey()).contains(key);
        assertThat(fake.records("transfers").stream().filter(r -> !r.deleted()).toList()).hasSize(1); // one transfer, not two

        // action_status on a finished action answers the same result, from this server's book.
        McpSchema.CallToolResult status = mcp.call("action_status", Map.of("action_id", w.get("action_id")));
        assertThat(structured(status)).containsEntry("state", "done").containsEntry("outcome", "succeeded").containsEntry("reconciled", true);

        // Seed step 5: exhaust the configured time budget. The report class may wait 2 s in all; the provider asks for 4 s.
        // The read stops at once and is handed to an operator: the model is given the escalation's id and told not to resend.
        fake.addFault(FaultRule.of(Fault.rateLimited(Duration.ofSeconds(4))).path("/v1/reports/{id}"));
        int beforeBudget = fake.attempts().size();
        McpSchema.CallToolResult spent = mcp.call("http_request", Map.of("provider", "api", "method", "GET", "path", "/v1/reports/r_9",
            "task", "nightly-sync", "goal", "reconcile last night's invoices"));
        assertThat(spent.isError()).as(text(spent)).isTrue();
        Map<String, Object> b5 = structured(spent);
        assertThat(b5).containsEntry("state", "done").containsEntry("outcome", "budget_exhausted").containsEntry("attempts", 1)
            .containsEntry("last_status", 429).containsEntry("task", "nightly-sync");
        escalationId = (String) b5.get("escalation_id");
        budgetReadId = (String) b5.get("action_id");
        assertThat(escalationId).matches("E-\\d+");
        assertThat(text(spent)).contains("Escalation " + escalationId + " is waiting for an operator; do not rephrase and resend");
        assertThat((String) b5.get("reason")).contains("escalated to an operator as " + escalationId);
        Attempt budget429 = fake.attempts().get(beforeBudget);
        assertThat(budget429.status()).isEqualTo(429);
        // The same task's transfer waits behind the scope's 4 s hold; another task's transfer queues behind it.
        McpSchema.CallToolResult queuedWrite = mcp.call("http_request", Map.of("provider", "api", "method", "POST", "path", "/v1/transfers",
            "task", "nightly-sync", "body", Map.of("source", "acct_17", "destination", "acct_42", "amount", 300, "currency", "USD"), "wait_seconds", 0));
        McpSchema.CallToolResult payroll = mcp.call("http_request", Map.of("provider", "api", "method", "POST", "path", "/v1/transfers",
            "task", "payroll", "body", Map.of("source", "acct_17", "destination", "acct_99", "amount", 900, "currency", "USD"), "wait_seconds", 0));
        assertThat(List.of(queuedWrite, payroll)).allSatisfy(r -> assertThat(structured(r)).containsEntry("state", "delayed"));
        cancelledWriteId = (String) structured(queuedWrite).get("action_id");
        // It would leave when the scope's hold ends: the model is shown that as next_allowed_at.
        Instant writeDue = Instant.parse((String) structured(queuedWrite).get("next_allowed_at"));
        assertThat(writeDue).isAfterOrEqualTo(budget429.arrivedAt().plusSeconds(3));
        assertThat(fake.attempts()).hasSize(beforeBudget + 1);
        // The model drops the task; the cancelled transfer never wakes, though the hold ends and the other task's goes out.
        McpSchema.CallToolResult dropped = mcp.call("cancel_task", Map.of("task", "nightly-sync"));
        assertThat(structured(dropped)).containsEntry("state", "cancelled");
        McpSchema.CallToolResult cancelledWrite = mcp.call("action_status", Map.of("action_id", cancelledWriteId, "wait_seconds", 10));
        assertThat(structured(cancelledWrite)).containsEntry("outcome", "cancelled").containsEntry("request_sent", false);
        McpSchema.CallToolResult payrollDone = mcp.call("action_status", Map.of("action_id", structured(payroll).get("action_id"), "wait_seconds", 60));
        assertThat(payrollDone.isError()).as(text(payrollDone)).isFalse();
        assertThat(structured(payrollDone)).containsEntry("outcome", "succeeded");
        List<Attempt> afterHold = fake.attempts().subList(beforeBudget + 1, fake.attempts().size());
        assertThat(afterHold).singleElement().satisfies(a -> {
          assertThat(a.method()).isEqualTo("POST");
          assertThat(a.arrivedAt()).isAfterOrEqualTo(writeDue); // past the time the cancelled transfer would have left
        });
        Map<String, Object> emptied = ((List<Map<String, Object>>) structured(mcp.call("list_scopes", Map.of("provider", "api"))).get("scopes")).get(0);
        assertThat(emptied).containsEntry("queued", 0).containsEntry("in_flight", 0); // nothing of the cancelled task is left to wake
        assertThat(fake.records("transfers").stream().filter(r -> !r.deleted()).toList()).hasSize(2); // step 4's and payroll's, not the cancelled one
        fake.clearFaults();

        // Step 5's delayed part: a long hold answers delayed with the journal's id and due time; the
        // model cancels the task, and the cancelled work never wakes.
        int beforeHold = fake.attempts().size();
        fake.addFault(FaultRule.of(Fault.rateLimited(Duration.ofSeconds(30))).path("/v1/invoices/{id}"));
        McpSchema.CallToolResult held = mcp.call("http_request", Map.of("provider", "api", "method", "GET", "path", "/v1/invoices/inv_5",
            "task", "task-5", "wait_seconds", 3));
        assertThat(held.isError()).as(text(held)).isFalse();
        Map<String, Object> h5 = structured(held);
        assertThat(h5).containsEntry("state", "delayed").containsEntry("phase", "delayed").containsEntry("attempts", 1).containsEntry("last_status", 429);
        assertThat((String) h5.get("action_id")).doesNotStartWith("mem-"); // journaled: the id outlives this process
        Attempt the429 = fake.attempts().get(beforeHold);
        assertThat(the429.status()).isEqualTo(429);
        assertThat(Instant.parse((String) h5.get("due_at"))).isBetween(the429.arrivedAt().plusSeconds(29), the429.arrivedAt().plusSeconds(32));
        McpSchema.CallToolResult queuedBehind = mcp.call("http_request", Map.of("provider", "api", "method", "GET", "path", "/v1/invoices/inv_6",
            "task", "task-5", "wait_seconds", 0));
        assertThat(structured(queuedBehind)).containsEntry("state", "delayed");
        McpSchema.CallToolResult cancel = mcp.call("cancel_task", Map.of("task", "task-5"));
        assertThat(structured(cancel)).containsEntry("state", "cancelled").containsEntry("cancelled", 2);
        for (McpSchema.CallToolResult r : List.of(held, queuedBehind)) {
          McpSchema.CallToolResult after = mcp.call("action_status", Map.of("action_id", structured(r).get("action_id"), "wait_seconds", 10));
          assertThat(after.isError()).isTrue();
          assertThat(structured(after)).containsEntry("state", "done").containsEntry("outcome", "cancelled");
        }
        McpSchema.CallToolResult later = mcp.call("http_request", Map.of("provider", "api", "method", "GET", "path", "/v1/invoices/inv_7",
            "task", "task-5"));
        assertThat(structured(later)).containsEntry("outcome", "cancelled").containsEntry("request_sent", false);
        assertThat(fake.attempts()).hasSize(beforeHold + 1); // only the 429: nothing of the cancelled task woke
        fake.clearFaults();

        // Malformed calls: a clear isError each, and nothing reaches the provider.
        int sent = fake.attempts().size();
        McpSchema.CallToolResult unknown = mcp.call("http_request", Map.of("provider", "nope", "method", "GET", "path", "/v1/invoices/inv_2"));
        McpSchema.CallToolResult notYours = mcp.call("http_request", Map.of("provider", "other", "method", "GET", "path", "/v1/invoices/inv_2"));
        McpSchema.CallToolResult badJson = mcp.call("http_request", Map.of("provider", "api", "method", "POST", "path", "/v1/transfers",
            "headers", Map.of("Content-Type", "application/json"), "body", "{\"amount\": 12500,"));
        McpSchema.CallToolResult authorization = mcp.call("http_request", Map.of("provider", "api", "method", "GET", "path", "/v1/invoices/inv_2",
            "headers", Map.of("Authorization", "Bearer stolen-token")));
        McpSchema.CallToolResult noPath = mcp.call("http_request", Map.of("provider", "api", "method", "GET"));
        McpSchema.CallToolResult unsafePath = mcp.call("http_request", Map.of("provider", "api", "method", "GET", "path", "/v1/../admin"));
        for (McpSchema.CallToolResult r : List.of(unknown, notYours, badJson, authorization, noPath, unsafePath)) {
          assertThat(r.isError()).as(text(r)).isTrue();
          assertThat(structured(r)).containsEntry("outcome", "refused").containsEntry("request_sent", false).containsEntry("attempts", 0);
          assertThat(text(r)).startsWith("Refused by Sluice before anything was sent");
        }
        assertThat((String) structured(unknown).get("reason")).startsWith("provider_not_allowed").contains("[api]");
        assertThat(structured(notYours).get("reason")).isEqualTo(((String) structured(unknown).get("reason")).replace("'nope'", "'other'"));
        assertThat((String) structured(badJson).get("reason")).startsWith("bad_json_body");
        assertThat((String) structured(authorization).get("reason")).startsWith("reserved_header").contains("headers.Authorization");
        assertThat((String) structured(noPath).get("reason")).startsWith("invalid_arguments").contains("path");
        assertThat((String) structured(unsafePath).get("reason")).contains("unsafe");
        assertThat(fake.attempts()).hasSize(sent);

        // The provider credential never reaches the model or the logs.
        ObjectMapper json = new ObjectMapper();
        for (McpSchema.CallToolResult r : mcp.received) {
          assertThat(text(r) + json.writeValueAsString(r.structuredContent())).doesNotContain(SECRET);
        }
        assertThat(String.join("\n", stderr)).doesNotContain(SECRET);
        sentWhileServing = fake.attempts().size();
      } finally {
        stderr.forEach(line -> System.err.println("[sluice mcp] " + line)); // the child's log, for a failing run
        client.closeGracefully().block(Duration.ofSeconds(30)); // waits for the child to exit, which frees data_dir
      }

      // The operator's side of step 5, from the journal the stdio server left in data_dir: the escalation with its
      // dossier, redacted; and the agent's tasks were journaled in its own namespace (bot/...).
      Map<String, String> env = Map.of("API_TOKEN", SECRET);
      try (Sluice operator = Sluice.builder().policy(PolicyLoader.load(config)).secrets(n -> java.util.Optional.ofNullable(env.get(n)))
          .journalFromPolicy().build()) {
        Escalation e = operator.escalation(EscalationId.parse(escalationId)).orElseThrow();
        assertThat(e.trigger()).isEqualTo(Trigger.WAIT_BUDGET_EXHAUSTED);
        assertThat(e.dossier().actionId()).isEqualTo(budgetReadId);
        assertThat(e.dossier().taskId()).isEqualTo("bot/nightly-sync");
        assertThat(e.dossier().goal()).contains("reconcile last night's invoices");
        assertThat(e.dossier().attempts()).singleElement().satisfies(a -> {
          assertThat(a.status()).hasValue(429);
          assertThat(a.rateLimitHeaders()).containsEntry("retry-after", List.of("4"));
        });
        assertThat(e.dossier().budget().maxWait()).isEqualTo(Duration.ofSeconds(2));
        String dossier = new ObjectMapper().writeValueAsString(EscalationJson.of(e));
        for (String form : List.of(SECRET, java.util.Base64.getEncoder().encodeToString(SECRET.getBytes(StandardCharsets.UTF_8)), "Bearer " + SECRET)) {
          assertThat(dossier).doesNotContain(form);
        }
        assertThat(dossier.toLowerCase(java.util.Locale.ROOT)).doesNotContain("authorization");
        assertThat(operator.action(ActionId.of(cancelledWriteId)).orElseThrow()).satisfies(a -> {
          assertThat(a.state()).isEqualTo(ActionState.CANCELLED);
          assertThat(a.taskId()).isEqualTo("bot/nightly-sync");
        });
      }
      assertThat(fake.attempts()).hasSize(sentWhileServing); // the cancelled work did not wake at the restart either
    }
  }

  /**
   * The policy of the MCP acceptance tests, in {@code dir/sluice.yaml} with its data_dir in {@code
   * dir/data}: provider {@code api} (reads, a 2-second report class, transfers with a look-up by key)
   * on the fake, provider {@code other}, agents {@code bot} (api) and {@code ops} (api, other).
   */
  static Path writePolicy(Path dir, FakeProvider fake) throws java.io.IOException {
    String yaml = """
        data_dir: "%s"
        request_classes:
          read: {max_attempts: 4, max_wait_seconds: 90, retry_statuses: [408, 429, 500, 502, 503, 504]}
          idempotent_write: {max_attempts: 3, max_wait_seconds: 120, retry_statuses: [408, 429, 502, 503, 504]}
          uncertain_write: {max_attempts: 1, max_wait_seconds: 0, retry_statuses: []}
          report: {max_attempts: 4, max_wait_seconds: 2, retry_statuses: [429]}
        providers:
          api:
            base_url: %s
            credential: {header: Authorization, format: "Bearer {secret}", secret_env: API_TOKEN}
            scope: account:acme
            shared_scope: {max_delayed_requests: 25, max_concurrent_requests: 2}
            idempotency_header: Idempotency-Key
            routes:
              - {method: GET, path: "/v1/invoices/{id}", class: read}
              - {method: GET, path: "/v1/reports/{id}", class: report}
              - {method: POST, path: "/v1/transfers", class: idempotent_write,
                 lookup: {method: GET, path: "/v1/transfers?idempotency_key={idempotency_key}"}}
          other:
            base_url: %s
        agents:
          - {id: bot, token_env: BOT_TOKEN, providers: [api]}
          - {id: ops, token_env: OPS_TOKEN, providers: [api, other]}
        """.formatted(dir.resolve("data").toString().replace("\\", "/"), fake.baseUri(), fake.baseUri());
    Path file = dir.resolve("sluice.yaml");
    Files.writeString(file, yaml, StandardCharsets.UTF_8);
    return file;
  }

  /** The SDK's stdio client on a child JVM running {@code sluice mcp --config config --agent agent} with {@code env}. */
  static McpAsyncClient stdioClient(Path config, String agent, Map<String, String> env, List<String> stderr) {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    String classpath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    ServerParameters params = ServerParameters.builder(java)
        .args("--enable-native-access=ALL-UNNAMED", "-cp", classpath, "dev.sluice.cli.SluiceCli", "mcp", "--config", config.toString(), "--agent", agent)
        .env(withLogLevel(env))
        .build();
    StdioClientTransport transport = new SerializedStdioClientTransport(params);
    transport.setStdErrorHandler(stderr::add);
    return McpClient.async(transport).requestTimeout(Duration.ofSeconds(90)).initializationTimeout(Duration.ofSeconds(180)).build();
  }

  private static Map<String, String> withLogLevel(Map<String, String> env) {
    Map<String, String> all = new java.util.HashMap<>(env);
    all.put("SLUICE_LOG_LEVEL", "INFO");
    return all;
  }

  /**
   * The SDK's stdio client transport emits each outgoing message into a sink that refuses a second
   * concurrent sender ("Failed to enqueue message"): the client's own {@code notifications/initialized}
   * can race the test's next request. Sends are serialized here; the wire and the server are untouched.
   */
  private static final class SerializedStdioClientTransport extends StdioClientTransport {
    SerializedStdioClientTransport(ServerParameters params) {
      super(params, new JacksonMcpJsonMapper(new ObjectMapper()));
    }

    @Override
    public synchronized reactor.core.publisher.Mono<Void> sendMessage(McpSchema.JSONRPCMessage message) {
      return super.sendMessage(message);
    }
  }
}
