package dev.sluice.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.fake.Attempt;
import dev.sluice.fake.FakeProvider;
import dev.sluice.fake.Fault;
import dev.sluice.fake.FaultRule;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The seed's steps 1–3 through real HTTP: three agent threads with the JDK HttpClient, and an agent
 * using curl, call the gateway exactly as they would call the provider (only the base URL and the
 * token differ). Counted at the fake provider, with the engine acceptance test's assertions.
 */
class SeedSequenceThroughTheGatewayTest {
  static final String READ_ROUTE = """
      shared_scope: {max_delayed_requests: 25, max_concurrent_requests: 2}
      routes:
        - {method: GET, path: "/v1/invoices/{id}", class: read}
      """;

  @Test
  void threeAgentThreadsOneScopeOne429TheWholeScopeWaitsThenAllSucceedSpread() throws Exception {
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
}
