package dev.sluice.gateway;

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
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The MCP server's escalation parts over streamable HTTP at {@code /mcp} inside the gateway, on a
 * journaled gateway (escalations need the journal), with the SDK's own HTTP client: per-call
 * approval held for an operator who decides through the gateway's admin API, escalation ids in
 * results, and per-agent task namespaces. Everything is counted at the fake provider.
 */
class McpEscalationsThroughTheGatewayTest {
  static final String ROUTES = """
      shared_scope: {max_delayed_requests: 25, max_concurrent_requests: 2}
      routes:
        - {method: GET, path: "/v1/invoices/{id}", class: read}
        - {method: POST, path: "/v1/transfers", class: uncertain_write, approval: per_call}
        - {method: POST, path: "/records", class: uncertain_write}
      """;

  @TempDir Path dir;

  private GatewayHarness harness(FakeProvider.Builder fake) {
    return new GatewayHarness(fake, ROUTES, "", GatewayHarness.Options.defaults().dataDir(dir.resolve("data")));
  }

  private static McpAsyncClient client(GatewayHarness h, String token) {
    return McpChecks.httpClient(h.gateway.uri(), token);
  }


  private static HttpResponse<String> decide(GatewayHarness h, String escalation, String option) {
    String body = "{\"option\":\"" + option + "\",\"by\":\"ops-ana\",\"reason\":\"checked with finance\"}";
    return h.send(HttpRequest.newBuilder(h.uri("/v1/escalations/" + escalation + "/decision")).header("Authorization", "Bearer "
        + GatewayHarness.OPERATOR_TOKEN).header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)));
  }

  private static List<Attempt> posts(FakeProvider fake) {
    return fake.attempts().stream().filter(a -> a.method().equals("POST")).toList();
  }

  /** The held call: awaiting_approval at once, with the action and escalation ids; nothing at the provider. */
  private static Map<String, Object> heldTransfer(McpChecks mcp, GatewayHarness h) {
    McpSchema.CallToolResult r = mcp.call("http_request", Map.of("provider", "api", "method", "POST", "path", "/v1/transfers", "task", "payout-7",
        "goal", "pay supplier invoice inv_7", "body", Map.of("amount", 12500, "currency", "USD"), "wait_seconds", 5));
    assertThat(r.isError()).as(text(r)).isFalse();
    Map<String, Object> s = structured(r);
    assertThat(s).containsEntry("state", "awaiting_approval").containsEntry("outcome", null).containsEntry("task", "payout-7")
        .containsEntry("request_sent", null).containsEntry("attempts", 0);
    String escalation = (String) s.get("escalation_id");
    assertThat(escalation).matches("E-\\d+");
    assertThat((String) s.get("action_id")).doesNotStartWith("mem-");
    assertThat(text(r)).contains("Escalation " + escalation + " is waiting for an operator").contains("You cannot approve it yourself")
        .contains("action_status with action_id " + s.get("action_id"));
    assertThat(h.fake.attempts()).isEmpty();

    McpSchema.CallToolResult status = mcp.call("action_status", Map.of("action_id", s.get("action_id")));
    assertThat(status.isError()).isFalse();
    assertThat(structured(status)).containsEntry("state", "awaiting_approval").containsEntry("escalation_id", escalation);
    // The operator sees the model's goal in the dossier, and the held action as the agent's task.
    String shown = h.get("/v1/escalations/" + escalation, GatewayHarness.OPERATOR_TOKEN).body();
    assertThat(shown).contains("approval_required").contains("pay supplier invoice inv_7").contains("bot/payout-7").doesNotContain(GatewayHarness.SECRET);
    assertThat(h.fake.attempts()).isEmpty();
    return s;
  }

  @Test
  void aPerCallApprovalIsHeldForTheOperatorAndOnlyTheApprovalSendsExactlyOnePost() {
    try (GatewayHarness h = harness(FakeProvider.builder())) {
      McpAsyncClient c = client(h, GatewayHarness.AGENT_TOKEN);
      try {
        McpChecks mcp = new McpChecks(c);
        Map<String, Object> held = heldTransfer(mcp, h);
        String escalation = (String) held.get("escalation_id");

        assertThat(decide(h, escalation, "approve").statusCode()).isEqualTo(200);
        McpSchema.CallToolResult after = mcp.call("action_status", Map.of("action_id", held.get("action_id"), "wait_seconds", 30));
        assertThat(after.isError()).as(text(after)).isFalse();
        assertThat(structured(after)).containsEntry("state", "done").containsEntry("outcome", "succeeded").containsEntry("attempts", 1);
        assertThat(posts(h.fake)).singleElement().satisfies(a -> assertThat(a.path()).isEqualTo("/v1/transfers"));
        assertThat(h.fake.attempts()).hasSize(1);
        // A second decision is refused, and nothing more is sent.
        assertThat(decide(h, escalation, "approve").statusCode()).isEqualTo(409);
        assertThat(h.fake.attempts()).hasSize(1);
      } finally {
        c.closeGracefully().block(Duration.ofSeconds(10));
      }
    }
  }

  @Test
  void aRejectedApprovalSendsNothingAndTheModelIsToldItWasNotApproved() {
    try (GatewayHarness h = harness(FakeProvider.builder())) {
      McpAsyncClient c = client(h, GatewayHarness.AGENT_TOKEN);
      try {
        McpChecks mcp = new McpChecks(c);
        Map<String, Object> held = heldTransfer(mcp, h);
        String escalation = (String) held.get("escalation_id");

        assertThat(decide(h, escalation, "reject").statusCode()).isEqualTo(200);
        McpSchema.CallToolResult after = mcp.call("action_status", Map.of("action_id", held.get("action_id"), "wait_seconds", 30));
        assertThat(after.isError()).isTrue();
        assertThat(structured(after)).containsEntry("state", "done").containsEntry("outcome", "cancelled").containsEntry("request_sent", false)
            .containsEntry("escalation_id", escalation);
        assertThat(text(after)).startsWith("Rejected: an operator did not approve POST /v1/transfers (escalation " + escalation + ")");
        assertThat(h.fake.attempts()).isEmpty();
      } finally {
        c.closeGracefully().block(Duration.ofSeconds(10));
      }
    }
  }

  @Test
  void anUncertainWriteWithoutLookUpNamesItsEscalationToTheModel() {
    FakeProvider.Builder fake = FakeProvider.builder().fault(FaultRule.of(Fault.dropAfterCommit()).method("POST").path("/records"));
    try (GatewayHarness h = harness(fake)) {
      McpAsyncClient c = client(h, GatewayHarness.AGENT_TOKEN);
      try {
        McpChecks mcp = new McpChecks(c);
        McpSchema.CallToolResult r = mcp.call("http_request", Map.of("provider", "api", "method", "POST", "path", "/records", "task", "sync-483",
            "body", Map.of("name", "ledger entry")));
        assertThat(r.isError()).isTrue();
        Map<String, Object> s = structured(r);
        assertThat((String) s.get("outcome")).isIn("escalated", "reconciliation_required");
        assertThat(s).containsEntry("request_sent", true).containsEntry("response_received", false).containsEntry("attempts", 1);
        String escalation = (String) s.get("escalation_id");
        assertThat(escalation).matches("E-\\d+");
        assertThat(text(r)).contains("Do not rephrase and resend").contains("Escalation " + escalation + " is waiting for an operator");
        // The escalation the model was given is the operator's, for this very action.
        String shown = h.get("/v1/escalations/" + escalation, GatewayHarness.OPERATOR_TOKEN).body();
        assertThat(shown).contains("uncertain_write").contains((String) s.get("action_id"));
        McpSchema.CallToolResult status = mcp.call("action_status", Map.of("action_id", s.get("action_id")));
        // Still this server's own result (not rebuilt from the journal, which names the end "escalated"): the same outcome and id.
        assertThat(structured(status)).containsEntry("escalation_id", escalation).containsEntry("outcome", s.get("outcome"))
            .containsEntry("request_sent", true);
        assertThat(text(status)).contains("Escalation " + escalation + " is waiting for an operator");
        assertThat(h.fake.attempts()).extracting(Attempt::method).containsExactly("POST"); // sent once, never again
        assertThat(h.fake.records("records")).hasSize(1);
      } finally {
        c.closeGracefully().block(Duration.ofSeconds(10));
      }
    }
  }

  @Test
  void twoAgentsUsingTaskTShareNeitherCancellationNorActions() {
    FakeProvider.Builder fake = FakeProvider.builder().fault(FaultRule.of(Fault.rateLimited(Duration.ofSeconds(3))).path("/v1/invoices/{id}"));
    try (GatewayHarness h = harness(fake)) {
      McpAsyncClient bot = client(h, GatewayHarness.AGENT_TOKEN);
      McpAsyncClient bot2 = client(h, GatewayHarness.AGENT2_TOKEN);
      try {
        McpChecks one = new McpChecks(bot);
        McpChecks two = new McpChecks(bot2);
        // bot's read gets 429 Retry-After: 3 and waits; bot2's read of the same task name queues behind the scope's hold.
        McpSchema.CallToolResult a = one.call("http_request", Map.of("provider", "api", "method", "GET", "path", "/v1/invoices/inv_1", "task", "t",
            "wait_seconds", 0.5));
        McpSchema.CallToolResult b = two.call("http_request", Map.of("provider", "api", "method", "GET", "path", "/v1/invoices/inv_2", "task", "t",
            "wait_seconds", 0));
        assertThat(structured(a)).containsEntry("state", "delayed").containsEntry("task", "t");
        assertThat(structured(b)).containsEntry("state", "delayed").containsEntry("task", "t");
        assertThat(h.fake.attempts()).hasSize(1);

        // bot2 cannot read bot's action, even knowing its id.
        McpSchema.CallToolResult peek = two.call("action_status", Map.of("action_id", structured(a).get("action_id")));
        assertThat(peek.isError()).isTrue();
        assertThat((String) structured(peek).get("reason")).startsWith("unknown_action");

        McpSchema.CallToolResult cancel = one.call("cancel_task", Map.of("task", "t"));
        assertThat(structured(cancel)).containsEntry("state", "cancelled").containsEntry("cancelled", 1);
        McpSchema.CallToolResult mine = one.call("action_status", Map.of("action_id", structured(a).get("action_id"), "wait_seconds", 10));
        assertThat(structured(mine)).containsEntry("outcome", "cancelled");
        // bot2's task t was not cancelled: its read leaves after the hold and succeeds.
        McpSchema.CallToolResult theirs = two.call("action_status", Map.of("action_id", structured(b).get("action_id"), "wait_seconds", 30));
        assertThat(theirs.isError()).as(text(theirs)).isFalse();
        assertThat(structured(theirs)).containsEntry("outcome", "succeeded").containsEntry("task", "t");
        McpSchema.CallToolResult later = two.call("http_request", Map.of("provider", "api", "method", "GET", "path", "/v1/invoices/inv_3", "task", "t"));
        assertThat(structured(later)).containsEntry("outcome", "succeeded");

        // At the provider: bot's 429, then only bot2's two reads; the engine's tasks are agent/t.
        assertThat(h.fake.attempts()).extracting(x -> x.task().orElse("?") + " " + x.path() + " " + x.status())
            .containsExactly("bot/t /v1/invoices/inv_1 429", "bot2/t /v1/invoices/inv_2 200", "bot2/t /v1/invoices/inv_3 200");
      } finally {
        bot.closeGracefully().block(Duration.ofSeconds(10));
        bot2.closeGracefully().block(Duration.ofSeconds(10));
      }
    }
  }
}
