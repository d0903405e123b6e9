package dev.sluice.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.core.Sluice;
import dev.sluice.core.policy.PolicyLoader;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A client that sends many tool calls without waiting for the answers (as models that call tools in
 * parallel do) gets every answer. Regression: the SDK's stdio transport dropped a response when two
 * tool calls finished at the same moment ("Failed to enqueue message"), and the client waited for
 * it until its own timeout; this failed the stdio acceptance test in CI once. The test speaks raw
 * JSON-RPC, one message per line, over pipes into {@link StdioMcpServer}, and counts the responses
 * that come back on the server's stdout.
 */
class ConcurrentStdioCallsTest {
  static final int CALLS = 400;

  @Test
  void everyOneOfManyOutstandingToolCallsIsAnswered() throws Exception {
    ObjectMapper json = new ObjectMapper();
    PipedOutputStream clientOut = new PipedOutputStream();
    PipedInputStream serverIn = new PipedInputStream(clientOut, 1 << 20);
    PipedOutputStream serverOut = new PipedOutputStream();
    PipedInputStream clientIn = new PipedInputStream(serverOut, 1 << 20);
    Sluice sluice = Sluice.builder().policy(PolicyLoader.parse("providers:\n  api:\n    base_url: http://127.0.0.1:9\n", "t.yaml"))
        .secrets(n -> Optional.empty()).build();
    McpAgent agent = new McpAgent("bot", List.of("api"));
    try (sluice; StdioMcpServer server = StdioMcpServer.start(sluice, agent, McpSettings.defaults(), serverIn, serverOut)) {
      Set<Long> answered = ConcurrentHashMap.newKeySet();
      Set<Long> errors = ConcurrentHashMap.newKeySet();
      CountDownLatch initialized = new CountDownLatch(1);
      CountDownLatch allAnswered = new CountDownLatch(CALLS);
      Thread reader = Thread.ofPlatform().daemon().start(() -> {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(clientIn, StandardCharsets.UTF_8))) {
          for (String line; (line = in.readLine()) != null; ) {
            JsonNode m = json.readTree(line);
            if (!m.has("id")) {
              continue;
            }
            long id = m.get("id").asLong();
            if (id == 0) {
              initialized.countDown();
            } else if (answered.add(id)) {
              if (m.has("error") || m.path("result").path("isError").asBoolean(false)) {
                errors.add(id);
              }
              allAnswered.countDown();
            }
          }
        } catch (java.io.IOException e) {
          // the pipe closes when the server stops
        }
      });

      send(clientOut, json, """
          {"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},
           "clientInfo":{"name":"parallel-test","version":"1"}}}""");
      assertThat(initialized.await(60, TimeUnit.SECONDS)).as("initialize answered").isTrue();
      send(clientOut, json, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
      for (int id = 1; id <= CALLS; id++) {
        String tool = id % 2 == 0 ? "list_providers" : "list_scopes";
        send(clientOut, json, "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"tools/call\",\"params\":{\"name\":\"" + tool + "\",\"arguments\":{}}}");
      }

      // Bounded: all answers arrive within a second or two; a lost one never does.
      boolean all = allAnswered.await(60, TimeUnit.SECONDS);
      assertThat(answered).as("responses received of %d tool calls sent together", CALLS).hasSize(CALLS);
      assertThat(all).isTrue();
      assertThat(errors).isEmpty();
      clientOut.close();
      reader.join(TimeUnit.SECONDS.toMillis(30));
    }
  }

  private static void send(OutputStream out, ObjectMapper json, String message) throws java.io.IOException {
    out.write((json.readTree(message).toString() + "\n").getBytes(StandardCharsets.UTF_8));
    out.flush();
  }
}
