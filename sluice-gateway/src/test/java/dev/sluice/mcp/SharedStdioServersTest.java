package dev.sluice.mcp;

import static dev.sluice.mcp.McpChecks.structured;
import static dev.sluice.mcp.McpChecks.text;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.fake.Attempt;
import dev.sluice.fake.FakeProvider;
import dev.sluice.fake.Fault;
import dev.sluice.fake.FaultRule;
import io.modelcontextprotocol.client.McpAsyncClient;
import io.modelcontextprotocol.spec.McpSchema;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two MCP clients on one machine each start {@code sluice mcp} on the same policy (the same
 * data_dir), as two desktop agents would: real child JVMs, real JSON-RPC over their pipes. Both
 * start; the second relays to the first, so a 429 one of them receives holds the other's calls
 * (counted at the fake provider); when the first exits, the second takes the data_dir over and
 * goes on serving.
 */
class SharedStdioServersTest {
  static final String SECRET = "canary-secret-shared-9d41";
  static final Duration WAIT = Duration.ofSeconds(90);

  @TempDir Path dir;

  @Test
  void twoStdioServersOnOneDataDirShareTheScopeAndTheSecondTakesOverWhenTheFirstExits() throws Exception {
    FaultRule first429 = FaultRule.of(Fault.rateLimited(Duration.ofSeconds(2))).path("/v1/invoices/{id}");
    try (FakeProvider fake = FakeProvider.builder().fault(first429).start()) {
      Path config = StdioMcpServerAtTheFakeProviderTest.writePolicy(dir, fake);
      Path data = dir.resolve("data");
      List<String> stderrA = new CopyOnWriteArrayList<>();
      List<String> stderrB = new CopyOnWriteArrayList<>();
      Map<String, String> env = Map.of("API_TOKEN", SECRET);
      McpAsyncClient a = StdioMcpServerAtTheFakeProviderTest.stdioClient(config, "bot", env, stderrA);
      McpAsyncClient b = null;
      try {
        a.initialize().block(Duration.ofSeconds(180));
        McpChecks mcpA = new McpChecks(a);
        // A holds the data_dir and names its hub, readable by its owner only.
        Path hubFile = data.resolve(McpHub.FILE_NAME);
        assertThat(hubFile).exists();
        long holderPid = McpHub.read(data).orElseThrow().pid();
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(hubFile))).isEqualTo("rw-------");
        assertThat(Files.readString(hubFile)).doesNotContain(SECRET);

        b = StdioMcpServerAtTheFakeProviderTest.stdioClient(config, "ops", env, stderrB);
        b.initialize().block(Duration.ofSeconds(180)); // the second one starts too: it relays instead of failing on the lock
        McpChecks mcpB = new McpChecks(b);
        assertThat(String.join("\n", stderrB)).contains("relaying to its MCP hub");
        // It serves its own agent's tools: ops may use "other", bot may not.
        assertThat(providerIds(mcpB.call("list_providers", Map.of()))).containsExactly("api", "other");
        assertThat(providerIds(mcpA.call("list_providers", Map.of()))).containsExactly("api");

        // A's read gets 429 Retry-After: 2; B's read, sent after it, waits for the same hold: one scope, one view.
        CompletableFuture<McpSchema.CallToolResult> readA = mcpA.callAsync("http_request",
            Map.of("provider", "api", "method", "GET", "path", "/v1/invoices/inv_1", "task", "a-1")).toFuture();
        awaitAttempts(fake, 1);
        Attempt the429 = fake.attempts().get(0);
        assertThat(the429.status()).isEqualTo(429);
        McpSchema.CallToolResult readB = mcpB.call("http_request", Map.of("provider", "api", "method", "GET", "path", "/v1/invoices/inv_2", "task", "b-1"));
        assertThat(readB.isError()).as(text(readB)).isFalse();
        assertThat(structured(readB)).containsEntry("outcome", "succeeded");
        McpSchema.CallToolResult doneA = readA.get(WAIT.toSeconds(), TimeUnit.SECONDS);
        assertThat(doneA.isError()).as(text(doneA)).isFalse();
        List<Attempt> reads = fake.attempts();
        assertThat(reads).hasSize(3);
        Instant holdEnds = the429.arrivedAt().plusSeconds(2);
        assertThat(reads.subList(1, 3)).allSatisfy(x -> {
          assertThat(x.status()).isEqualTo(200);
          assertThat(x.arrivedAt()).isAfterOrEqualTo(holdEnds); // B's read too, though B never saw a 429
        });
        assertThat(reads).filteredOn(x -> x.path().equals("/v1/invoices/inv_2")).hasSize(1);

        // A's client goes away (its MCP client closed it); B's next call finds the hub gone, takes the data_dir over, and is served.
        a.closeGracefully().block(Duration.ofSeconds(30));
        a = null;
        McpSchema.CallToolResult afterA = mcpB.call("http_request", Map.of("provider", "api", "method", "GET", "path", "/v1/invoices/inv_3", "task", "b-2"));
        assertThat(afterA.isError()).as(text(afterA)).isFalse();
        assertThat(structured(afterA)).containsEntry("outcome", "succeeded").containsEntry("attempts", 1);
        assertThat(fake.attempts()).hasSize(4);
        assertThat(fake.attempts().get(3).path()).isEqualTo("/v1/invoices/inv_3");
        assertThat(String.join("\n", stderrB)).contains("now holds data_dir");
        assertThat(McpHub.read(data)).hasValueSatisfying(h -> {
          assertThat(h.pid()).isNotEqualTo(holderPid); // B's now
          assertThat(ProcessHandle.of(h.pid())).hasValueSatisfying(p -> assertThat(p.isAlive()).isTrue());
        });
        assertThat(String.join("\n", stderrA) + String.join("\n", stderrB)).doesNotContain(SECRET);
      } finally {
        stderrA.forEach(line -> System.err.println("[sluice mcp A] " + line));
        stderrB.forEach(line -> System.err.println("[sluice mcp B] " + line));
        if (a != null) {
          a.closeGracefully().block(Duration.ofSeconds(30));
        }
        if (b != null) {
          b.closeGracefully().block(Duration.ofSeconds(30));
        }
      }
      assertThat(data.resolve(McpHub.FILE_NAME)).doesNotExist(); // the last one out removed it
    }
  }

  @Test
  void aStdioServerStartedBesideARunningGatewayRelaysToItsEngine() throws Exception {
    FaultRule first429 = FaultRule.of(Fault.rateLimited(Duration.ofSeconds(2))).path("/v1/invoices/{id}");
    try (FakeProvider fake = FakeProvider.builder().fault(first429).start()) {
      Path config = StdioMcpServerAtTheFakeProviderTest.writePolicy(dir, fake);
      Path data = dir.resolve("data");
      Map<String, String> env = Map.of("API_TOKEN", SECRET, "BOT_TOKEN", "bot-token-0123456789abcdef", "OPS_TOKEN", "ops-token-0123456789abcdef");
      dev.sluice.core.policy.Policy policy = dev.sluice.core.policy.PolicyLoader.load(config);
      List<String> stderr = new CopyOnWriteArrayList<>();
      McpAsyncClient c = null;
      try (dev.sluice.gateway.Gateway g = dev.sluice.gateway.Gateway.builder(policy).env(n -> java.util.Optional.ofNullable(env.get(n)))
          .listen(new dev.sluice.core.policy.ListenAddress("127.0.0.1", 0)).stopTimeout(Duration.ofSeconds(1))
          .sluice(dev.sluice.core.Sluice.builder().secrets(n -> java.util.Optional.ofNullable(env.get(n))).journalFromPolicy()).mcpHub(true).start()) {
        assertThat(McpHub.read(data)).hasValueSatisfying(h -> assertThat(h.url().toString()).isEqualTo(g.uri() + "/mcp"));
        // An agent's HTTP call through the gateway gets the 429 and waits out the hold inside Sluice.
        CompletableFuture<java.net.http.HttpResponse<String>> viaHttp = java.net.http.HttpClient.newHttpClient().sendAsync(
            java.net.http.HttpRequest.newBuilder(g.uri().resolve("/api/v1/invoices/inv_1")).header("Authorization", "Bearer " + env.get("BOT_TOKEN"))
                .timeout(WAIT).build(), java.net.http.HttpResponse.BodyHandlers.ofString());
        awaitAttempts(fake, 1);
        Attempt the429 = fake.attempts().get(0);
        assertThat(the429.status()).isEqualTo(429);

        c = StdioMcpServerAtTheFakeProviderTest.stdioClient(config, "ops", env, stderr);
        c.initialize().block(Duration.ofSeconds(180));
        McpChecks mcp = new McpChecks(c);
        McpSchema.CallToolResult read = mcp.call("http_request", Map.of("provider", "api", "method", "GET", "path", "/v1/invoices/inv_2", "task", "r-1"));
        assertThat(read.isError()).as(text(read)).isFalse();
        assertThat(viaHttp.get(WAIT.toSeconds(), TimeUnit.SECONDS).statusCode()).isEqualTo(200);
        assertThat(fake.attempts()).hasSize(3);
        assertThat(fake.attempts().subList(1, 3)).allSatisfy(x -> assertThat(x.arrivedAt()).isAfterOrEqualTo(the429.arrivedAt().plusSeconds(2)));
        assertThat(String.join("\n", stderr)).contains("relaying to its MCP hub at " + g.uri() + "/mcp");
        // The gateway's /mcp still refuses a hub-shaped token with a wrong secret.
        java.net.http.HttpResponse<String> forged = java.net.http.HttpClient.newHttpClient().send(java.net.http.HttpRequest.newBuilder(g.uri().resolve("/mcp"))
            .header("Authorization", "Bearer " + "0".repeat(64) + ".ops").header("Content-Type", "application/json")
            .POST(java.net.http.HttpRequest.BodyPublishers.ofString("{}")).build(), java.net.http.HttpResponse.BodyHandlers.ofString());
        assertThat(forged.statusCode()).isEqualTo(401);
      } finally {
        stderr.forEach(line -> System.err.println("[sluice mcp] " + line));
        if (c != null) {
          c.closeGracefully().block(Duration.ofSeconds(30));
        }
      }
      assertThat(McpHub.read(data)).isEmpty(); // the gateway withdrew it when it stopped
    }
  }

  @Test
  void aWriteInFlightWhenTheHolderIsKilledIsAnsweredInterruptedAndTheProviderEndsWithOneTransfer() throws Exception {
    FaultRule held = FaultRule.of(Fault.hold(Duration.ofSeconds(60))).method("POST").path("/v1/transfers");
    try (FakeProvider fake = FakeProvider.builder().fault(held).start()) {
      Path config = StdioMcpServerAtTheFakeProviderTest.writePolicy(dir, fake);
      Path data = dir.resolve("data");
      Map<String, String> env = Map.of("API_TOKEN", SECRET);
      List<String> stderrA = new CopyOnWriteArrayList<>();
      List<String> stderrB = new CopyOnWriteArrayList<>();
      McpAsyncClient a = StdioMcpServerAtTheFakeProviderTest.stdioClient(config, "bot", env, stderrA);
      McpAsyncClient b = null;
      try {
        a.initialize().block(Duration.ofSeconds(180));
        long holderPid = McpHub.read(data).orElseThrow().pid();
        b = StdioMcpServerAtTheFakeProviderTest.stdioClient(config, "ops", env, stderrB);
        b.initialize().block(Duration.ofSeconds(180));
        McpChecks mcpB = new McpChecks(b);

        // B's transfer goes through A's engine; the provider holds it; A is killed (no goodbye, like a crash).
        CompletableFuture<McpSchema.CallToolResult> write = mcpB.callAsync("http_request", Map.of("provider", "api", "method", "POST",
            "path", "/v1/transfers", "task", "pay", "body", Map.of("source", "acct_1", "destination", "acct_2", "amount", 500, "currency", "EUR")))
            .toFuture();
        assertThat(fake.awaitHeld(1, WAIT)).isTrue();
        ProcessHandle holder = ProcessHandle.of(holderPid).orElseThrow();
        holder.destroyForcibly();
        holder.onExit().get(WAIT.toSeconds(), TimeUnit.SECONDS);

        // The model is told the call may have happened and must not be resent; the relay did not resend it either.
        McpSchema.CallToolResult r = write.get(WAIT.toSeconds(), TimeUnit.SECONDS);
        assertThat(r.isError()).isTrue();
        assertThat(structured(r)).containsEntry("outcome", "interrupted").containsEntry("request_sent", true);
        assertThat(text(r)).contains("Do not rephrase and resend a write");

        // The provider finishes the held request (its client is gone). B takes the data_dir over (now, or at its next
        // call); the journal resumes the write with its key: the provider ends with one transfer, not two.
        fake.releaseHeld();
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (true) {
          Map<String, Object> scope = scopeOf(mcpB.call("list_scopes", Map.of("provider", "api")));
          boolean settled = Integer.valueOf(0).equals(scope.get("queued")) && Integer.valueOf(0).equals(scope.get("in_flight"));
          if (settled && !fake.records("transfers").isEmpty()) {
            break;
          }
          if (System.nanoTime() > deadline) {
            throw new AssertionError("the resumed write did not settle: " + scope + ", records " + fake.records("transfers").size());
          }
          Thread.sleep(100); // bounded poll of the provider and of B's scope
        }
        assertThat(fake.records("transfers").stream().filter(x -> !x.deleted()).toList()).hasSize(1);
        List<Attempt> posts = fake.attempts().stream().filter(x -> x.method().equals("POST")).toList();
        assertThat(posts).isNotEmpty().extracting(Attempt::idempotencyKey).containsOnly(posts.get(0).idempotencyKey()); // one key throughout
        assertThat(McpHub.read(data)).hasValueSatisfying(h -> assertThat(h.pid()).isNotEqualTo(holderPid));
        assertThat(String.join("\n", stderrB)).contains("now holds data_dir");
      } finally {
        stderrA.forEach(line -> System.err.println("[sluice mcp A] " + line));
        stderrB.forEach(line -> System.err.println("[sluice mcp B] " + line));
        if (b != null) {
          b.closeGracefully().block(Duration.ofSeconds(30));
        }
        try {
          a.closeGracefully().block(Duration.ofSeconds(10));
        } catch (RuntimeException alreadyGone) {
          // A was killed
        }
      }
    }
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> scopeOf(McpSchema.CallToolResult r) {
    return ((List<Map<String, Object>>) structured(r).get("scopes")).get(0);
  }

  @SuppressWarnings("unchecked")
  private static List<Object> providerIds(McpSchema.CallToolResult r) {
    return ((List<Map<String, Object>>) structured(r).get("providers")).stream().map(p -> p.get("id")).toList();
  }

  private static void awaitAttempts(FakeProvider fake, int n) throws InterruptedException {
    long deadline = System.nanoTime() + WAIT.toNanos();
    while (fake.attempts().size() < n) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("the provider saw " + fake.attempts().size() + " attempts, expected " + n);
      }
      Thread.sleep(20); // bounded poll of the provider's own log
    }
  }
}
