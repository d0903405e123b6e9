package dev.sluice.gateway;

import static dev.sluice.mcp.McpChecks.map;
import static dev.sluice.mcp.McpChecks.structured;
import static dev.sluice.mcp.McpChecks.text;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.fake.Attempt;
import dev.sluice.fake.FakeProvider;
import dev.sluice.fake.Fault;
import dev.sluice.fake.FaultRule;
import dev.sluice.mcp.McpChecks;
import io.modelcontextprotocol.client.McpAsyncClient;
import io.modelcontextprotocol.spec.McpSchema;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * MCP over streamable HTTP at {@code /mcp} inside the gateway, on the gateway's engine, with the
 * SDK's own HTTP client transport. Counted at the fake provider.
 */
class McpOverHttpThroughTheGatewayTest {
  static final String ROUTES = """
      shared_scope: {max_delayed_requests: 25, max_concurrent_requests: 2}
      routes:
        - {method: GET, path: "/v1/invoices/{id}", class: read}
      """;

  private static McpAsyncClient client(GatewayHarness h, String token) {
    return McpChecks.httpClient(h.gateway.uri(), token);
  }


  @Test
  void withoutAValidAgentTokenMcpIs401AndTheOtherRoutesAreUntouched() {
    try (GatewayHarness h = new GatewayHarness(FakeProvider.builder(), ROUTES)) {
      String init = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},"
          + "\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}";
      for (String token : new String[] {null, "not-a-token-0123456789", GatewayHarness.OPERATOR_TOKEN}) {
        HttpRequest.Builder b = HttpRequest.newBuilder(h.uri("/mcp")).header("Content-Type", "application/json")
            .header("Accept", "application/json, text/event-stream").POST(HttpRequest.BodyPublishers.ofString(init));
        if (token != null) {
          b.header("Authorization", "Bearer " + token);
        }
        HttpResponse<String> r = h.send(b);
        assertThat(r.statusCode()).isEqualTo(401);
        assertThat(r.headers().firstValue("Content-Type")).hasValueSatisfying(t -> assertThat(t).startsWith("application/problem+json"));
        assertThat(r.body()).contains("agent token");
      }
      assertThat(h.get("/healthz", null).statusCode()).isEqualTo(200);
      HttpResponse<String> relayed = h.get("/api/v1/invoices/inv_1", GatewayHarness.AGENT_TOKEN);
      assertThat(relayed.statusCode()).isEqualTo(200);
      assertThat(h.fake.attempts()).hasSize(1); // only the gateway call; nothing from the refused MCP requests
    }
  }

  @Test
  void aLongWaitAnswersDelayedWithTheDueTimeThenStatusAndCancelAndNothingWakes() {
    FakeProvider.Builder fake = FakeProvider.builder().fault(FaultRule.of(Fault.rateLimited(Duration.ofSeconds(30))).path("/v1/invoices/{id}"));
    try (GatewayHarness h = new GatewayHarness(fake, ROUTES)) {
      McpAsyncClient c = client(h, GatewayHarness.AGENT_TOKEN);
      try {
        McpChecks mcp = new McpChecks(c);
        McpSchema.CallToolResult r = mcp.call("http_request", Map.of("provider", "api", "method", "GET", "path", "/v1/invoices/inv_1",
            "task", "t-delay", "wait_seconds", 3));
        assertThat(r.isError()).as(text(r)).isFalse();
        Map<String, Object> s = structured(r);
        assertThat(s).containsEntry("state", "delayed").containsEntry("outcome", null).containsEntry("task", "t-delay");
        String id = (String) s.get("action_id");
        assertThat(id).startsWith("mem-"); // this gateway runs without a journal
        List<Attempt> sent = h.fake.attempts();
        assertThat(sent).extracting(Attempt::status).containsExactly(429);
        Instant due = Instant.parse((String) s.get("due_at"));
        assertThat(due).isBetween(sent.get(0).arrivedAt().plusSeconds(29), sent.get(0).arrivedAt().plusSeconds(32));
        assertThat(s.get("next_allowed_at")).isNotNull();
        assertThat(text(r)).contains("do not send it again").contains(id);

        McpSchema.CallToolResult status = mcp.call("action_status", Map.of("action_id", id));
        assertThat(structured(status)).containsEntry("state", "delayed").containsEntry("due_at", s.get("due_at"));

        // A task name is the agent's own namespace: naming one it never used cancels nothing of
        // anyone else's (the two-agent case is McpEscalationsThroughTheGatewayTest's).
        McpSchema.CallToolResult unused = mcp.call("cancel_task", Map.of("task", "a-task-never-used"));
        assertThat(unused.isError()).isFalse();
        assertThat(structured(unused)).containsEntry("state", "cancelled").containsEntry("cancelled", 0);
        McpSchema.CallToolResult empty = mcp.call("cancel_task", Map.of("task", " "));
        assertThat(empty.isError()).isTrue();
        assertThat(structured(empty)).containsEntry("state", "refused").containsEntry("cancelled", 0);

        McpSchema.CallToolResult cancelled = mcp.call("cancel_task", Map.of("task", "t-delay"));
        assertThat(cancelled.isError()).isFalse();
        assertThat(structured(cancelled)).containsEntry("state", "cancelled").containsEntry("cancelled", 1);

        McpSchema.CallToolResult after = mcp.call("action_status", Map.of("action_id", id, "wait_seconds", 10));
        assertThat(after.isError()).isTrue();
        assertThat(structured(after)).containsEntry("state", "done").containsEntry("outcome", "cancelled");
        assertThat(h.fake.attempts()).hasSize(1); // the cancelled read never woke

        McpSchema.CallToolResult unknown = mcp.call("action_status", Map.of("action_id", "mem-00000000-0000-0000-0000-000000000000"));
        assertThat(unknown.isError()).isTrue();
        assertThat((String) structured(unknown).get("reason")).startsWith("unknown_action");
      } finally {
        c.closeGracefully().block(Duration.ofSeconds(10));
      }
    }
  }

  @Test
  void repeatedIdenticalFailingCallsAreStoppedByTheCircuitAndItsConstraintReachesTheModelVerbatim() {
    try (GatewayHarness h = new GatewayHarness(FakeProvider.builder(), ROUTES)) {
      McpAsyncClient c = client(h, GatewayHarness.AGENT_TOKEN);
      try {
        McpChecks mcp = new McpChecks(c);
        Map<String, Object> call = Map.of("provider", "api", "method", "GET", "path", "/v1/missing/thing_1", "task", "t-loop");
        McpSchema.CallToolResult last = null;
        for (int i = 0; i < 4; i++) {
          last = mcp.call("http_request", call);
          assertThat(last.isError()).isTrue();
        }
        List<McpSchema.CallToolResult> results = mcp.received;
        assertThat(results.subList(0, 3)).allSatisfy(r -> {
          assertThat(structured(r)).containsEntry("outcome", "client_error");
          assertThat(map(structured(r).get("response"))).containsEntry("status", 404);
        });
        Map<String, Object> stopped = structured(last);
        assertThat(stopped).containsEntry("outcome", "circuit_open").containsEntry("request_sent", false).containsEntry("attempts", 0);
        assertThat(stopped.get("circuit_fingerprint")).isNotNull();
        assertThat(text(last)).contains((String) stopped.get("reason")).contains("Do not rephrase and resend");
        assertThat(h.fake.attempts()).hasSize(3); // the fourth identical call was refused before any attempt
      } finally {
        c.closeGracefully().block(Duration.ofSeconds(10));
      }
    }
  }

  @Test
  void theAgentSeesAndReachesOnlyItsProviders() {
    try (GatewayHarness h = new GatewayHarness(FakeProvider.builder(), ROUTES)) {
      McpAsyncClient c = client(h, GatewayHarness.AGENT_TOKEN);
      try {
        McpChecks mcp = new McpChecks(c);
        McpSchema.CallToolResult providers = mcp.call("list_providers", Map.of());
        assertThat(structured(providers)).containsEntry("agent", "bot");
        assertThat((List<Map<String, Object>>) structured(providers).get("providers")).extracting(p -> p.get("id")).containsExactly("api");
        McpSchema.CallToolResult scopes = mcp.call("list_scopes", Map.of());
        assertThat((List<Map<String, Object>>) structured(scopes).get("scopes")).extracting(p -> p.get("scope")).containsExactly("account:acme");
        McpSchema.CallToolResult otherScopes = mcp.call("list_scopes", Map.of("provider", "other"));
        assertThat(otherScopes.isError()).isTrue();
        McpSchema.CallToolResult other = mcp.call("http_request", Map.of("provider", "other", "method", "GET", "path", "/v1/invoices/inv_1"));
        assertThat(other.isError()).isTrue();
        assertThat((String) structured(other).get("reason")).startsWith("provider_not_allowed");
        McpSchema.CallToolResult ok = mcp.call("http_request", Map.of("provider", "api", "method", "GET", "path", "/v1/invoices/inv_1"));
        assertThat(ok.isError()).as(text(ok)).isFalse();
        assertThat(h.fake.attempts()).hasSize(1);
        assertThat(h.fake.attempts().get(0).task()).hasValueSatisfying(t -> assertThat(t).startsWith("bot/mcp-bot-")); // the session's default task, in bot's namespace
        for (McpSchema.CallToolResult r : mcp.received) {
          assertThat(text(r)).doesNotContain(GatewayHarness.SECRET);
        }
      } finally {
        c.closeGracefully().block(Duration.ofSeconds(10));
      }
    }
  }

  @Test
  void withoutAJournalAPerCallApprovalRouteIsRefusedWithNothingSent() {
    // A journaled gateway holds such calls for an operator (McpEscalationsThroughTheGatewayTest); this one has no journal to hold them in.
    String routes = ROUTES + "  - {method: POST, path: \"/v1/transfers\", class: uncertain_write, approval: per_call}\n";
    try (GatewayHarness h = new GatewayHarness(FakeProvider.builder(), routes)) {
      McpAsyncClient c = client(h, GatewayHarness.AGENT_TOKEN);
      try {
        McpChecks mcp = new McpChecks(c);
        McpSchema.CallToolResult providers = mcp.call("list_providers", Map.of());
        List<Map<String, Object>> listed = (List<Map<String, Object>>) ((List<Map<String, Object>>) structured(providers).get("providers")).get(0).get("routes");
        assertThat(listed).anySatisfy(r -> assertThat(r).containsEntry("path", "/v1/transfers").containsEntry("approval", "per_call"));
        McpSchema.CallToolResult r = mcp.call("http_request", Map.of("provider", "api", "method", "POST", "path", "/v1/transfers",
            "body", Map.of("amount", 1)));
        assertThat(r.isError()).isTrue();
        assertThat(structured(r)).containsEntry("outcome", "refused").containsEntry("request_sent", false);
        assertThat((String) structured(r).get("reason")).startsWith("approval_unavailable");
        assertThat(h.fake.attempts()).isEmpty();
      } finally {
        c.closeGracefully().block(Duration.ofSeconds(10));
      }
    }
  }

  static final String SMALL_CLASSES = "request_classes:\n"
      + "  read: {max_attempts: 2, max_wait_seconds: 5, retry_statuses: [429]}\n"
      + "  idempotent_write: {max_attempts: 3, max_wait_seconds: 120, retry_statuses: [408, 429, 502, 503, 504]}\n"
      + "  uncertain_write: {max_attempts: 1, max_wait_seconds: 0, retry_statuses: []}\n";

  @Test
  void aRateLimitTheBudgetCannotAbsorbTellsTheModelTheHoldAndNotToLoop() {
    FakeProvider.Builder fake = FakeProvider.builder().fault(FaultRule.of(Fault.rateLimited(Duration.ofSeconds(1))).path("/v1/invoices/{id}").always());
    try (GatewayHarness h = new GatewayHarness(fake, ROUTES, SMALL_CLASSES)) {
      McpAsyncClient c = client(h, GatewayHarness.AGENT_TOKEN);
      try {
        McpChecks mcp = new McpChecks(c);
        McpSchema.CallToolResult r = mcp.call("http_request", Map.of("provider", "api", "method", "GET", "path", "/v1/invoices/inv_1", "task", "sync-482"));
        assertThat(r.isError()).isTrue();
        Map<String, Object> s = structured(r);
        assertThat(s).containsEntry("outcome", "budget_exhausted").containsEntry("attempts", 2).containsEntry("last_status", 429);
        Map<String, Object> response = map(s.get("response"));
        assertThat(response).containsEntry("status", 429);
        assertThat(map(response.get("headers"))).containsKey("retry-after");
        assertThat(map(s.get("scope"))).containsEntry("source", "HTTP 429 Retry-After");
        assertThat(text(r)).startsWith("Rate limited: api kept answering 429.").contains("Do not repeat this call in a loop")
            .contains("on hold until " + s.get("next_allowed_at"));
        assertThat(h.fake.attempts()).hasSize(2).extracting(Attempt::status).containsOnly(429);
      } finally {
        c.closeGracefully().block(Duration.ofSeconds(10));
      }
    }
  }

  @Test
  void anUncertainWriteWithoutLookUpOrKeyIsNeverResentAndTheModelIsToldNotToRephraseIt() {
    FakeProvider.Builder fake = FakeProvider.builder().fault(FaultRule.of(Fault.dropAfterCommit()).method("POST").path("/records"));
    try (GatewayHarness h = new GatewayHarness(fake, ROUTES, SMALL_CLASSES)) {
      McpAsyncClient c = client(h, GatewayHarness.AGENT_TOKEN);
      try {
        McpChecks mcp = new McpChecks(c);
        McpSchema.CallToolResult r = mcp.call("http_request", Map.of("provider", "api", "method", "POST", "path", "/records", "task", "sync-483",
            "body", Map.of("name", "ledger entry")));
        assertThat(r.isError()).isTrue();
        Map<String, Object> s = structured(r);
        assertThat((String) s.get("outcome")).isIn("escalated", "reconciliation_required");
        assertThat(s).containsEntry("request_sent", true).containsEntry("response_received", false).containsEntry("reconciled", false);
        assertThat(text(r)).contains("may already have happened").contains("Do not rephrase and resend");
        assertThat(h.fake.attempts()).extracting(Attempt::method).containsExactly("POST"); // sent once, never again
        assertThat(h.fake.records("records")).hasSize(1);
      } finally {
        c.closeGracefully().block(Duration.ofSeconds(10));
      }
    }
  }
}
