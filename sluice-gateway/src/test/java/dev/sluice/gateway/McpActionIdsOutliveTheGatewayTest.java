package dev.sluice.gateway;

import static dev.sluice.mcp.McpChecks.structured;
import static dev.sluice.mcp.McpChecks.text;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.core.Sluice;
import dev.sluice.core.policy.ListenAddress;
import dev.sluice.core.policy.Policy;
import dev.sluice.fake.FakeProvider;
import dev.sluice.fake.Fault;
import dev.sluice.fake.FaultRule;
import dev.sluice.mcp.McpChecks;
import io.modelcontextprotocol.client.McpAsyncClient;
import io.modelcontextprotocol.spec.McpSchema;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A journaled action's id, as {@code http_request} gave it, still answers {@code action_status}
 * after the gateway restarts on the same data_dir: from the journal (state and due time), since
 * the new process never held the action's future.
 */
class McpActionIdsOutliveTheGatewayTest {
  @TempDir Path dir;

  private Gateway start(FakeProvider fake) {
    Policy policy = GatewayHarness.policy(fake, """
        idempotency_header: Idempotency-Key
        routes:
          - {method: POST, path: "/v1/transfers", class: idempotent_write,
             lookup: {method: GET, path: "/v1/transfers?idempotency_key={idempotency_key}"}}
        """, "data_dir: \"" + dir.resolve("data").toString().replace("\\", "/") + "\"\n");
    Map<String, String> env = GatewayHarness.ENV;
    return Gateway.builder(policy).env(n -> Optional.ofNullable(env.get(n))).listen(new ListenAddress("127.0.0.1", 0)).stopTimeout(Duration.ofSeconds(1))
        .sluice(Sluice.builder().secrets(n -> Optional.ofNullable(env.get(n))).journalFromPolicy()).start();
  }

  private static McpAsyncClient client(Gateway g) {
    return McpChecks.httpClient(g.uri(), GatewayHarness.AGENT_TOKEN);
  }


  @Test
  void aDelayedWritesIdAnswersFromTheJournalAfterARestart() {
    try (FakeProvider fake = FakeProvider.builder().fault(FaultRule.of(Fault.rateLimited(Duration.ofSeconds(60))).method("POST").path("/v1/transfers"))
        .start()) {
      String id;
      String key;
      try (Gateway first = start(fake)) {
        McpAsyncClient c = client(first);
        McpSchema.CallToolResult r = new McpChecks(c).call("http_request", Map.of("provider", "api", "method", "POST", "path", "/v1/transfers",
            "task", "payout-7", "body", Map.of("amount", 12500), "wait_seconds", 2));
        assertThat(structured(r)).containsEntry("state", "delayed").containsEntry("last_status", 429);
        id = (String) structured(r).get("action_id");
        key = (String) structured(r).get("idempotency_key");
        assertThat(key).startsWith("sk_");
        c.closeGracefully().block(Duration.ofSeconds(10));
      }
      try (Gateway second = start(fake)) {
        McpAsyncClient c = client(second);
        McpChecks mcp = new McpChecks(c);
        McpSchema.CallToolResult status = mcp.call("action_status", Map.of("action_id", id));
        assertThat(status.isError()).isFalse();
        assertThat(structured(status)).containsEntry("action_id", id).containsEntry("state", "delayed").containsEntry("task", "payout-7")
            .containsEntry("provider", "api").containsEntry("idempotency_key", key).containsEntry("attempts", 1);
        assertThat(structured(status).get("due_at")).isNotNull();
        assertThat(text(status)).contains("do not send it again");
        c.closeGracefully().block(Duration.ofSeconds(10));
      }
      assertThat(fake.attempts()).hasSize(1); // the one 429; the resumed write is still waiting out its hold
    }
  }
}
