package dev.sluice.bench.quota;

import dev.sluice.core.policy.ListenAddress;
import dev.sluice.core.policy.PolicyLoader;
import dev.sluice.gateway.Gateway;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Optional;

/**
 * Sluice as a gateway ({@code sluice serve}): the {@link Gateway} started in this JVM on a free
 * loopback port with the same policy as {@link SluiceEmbeddedStrategy} in {@code RATE} mode plus one
 * agent; the K workers share one JDK {@link HttpClient} (HTTP/1.1, keep-alive) and call {@code
 * http://127.0.0.1:PORT/fake/...} with the agent's token, {@code Sluice-Task: w-<worker>} and, for
 * a write, the action's {@code Idempotency-Key}. One request per action: the gateway answers with
 * the final outcome (it waits, up to its default of 120 s), so the worker never retries; every
 * retry is Sluice's and is counted at the provider like everyone else's.
 */
final class SluiceGatewayStrategy implements Strategy {
  static final String TOKEN = "bench-agent-token-not-a-secret";

  @Override
  public String name() {
    return "sluice-gateway";
  }

  String policyYaml(Setup s) {
    return new SluiceEmbeddedStrategy(SluiceEmbeddedStrategy.Mode.RATE).policyYaml(s) + """
        agents:
          - {id: bench, token_env: BENCH_AGENT_TOKEN, providers: [fake]}
        """;
  }

  @Override
  public Client open(Setup setup) {
    Gateway gateway = Gateway.builder(PolicyLoader.parse(policyYaml(setup), "bench-quota-gateway.yaml"))
        .env(name -> name.equals("BENCH_AGENT_TOKEN") ? Optional.of(TOKEN) : Optional.empty())
        .listen(new ListenAddress("127.0.0.1", 0)).stopTimeout(Duration.ofSeconds(2)).start();
    URI base = gateway.uri();
    HttpClient client = Http.newClient();
    return new Client() {
      @Override
      public boolean perform(Action a) throws InterruptedException {
        // Sluice waits out the quota inside the call, so the agent's timeout is long.
        HttpRequest.Builder b = Http.request(base.resolve("/fake" + a.target()), a, Duration.ofSeconds(180))
            .header("Authorization", "Bearer " + TOKEN).header("Sluice-Task", "w-" + Thread.currentThread().getName());
        try {
          HttpResponse<Void> r = client.send(b.build(), HttpResponse.BodyHandlers.discarding());
          return r.statusCode() >= 200 && r.statusCode() < 300;
        } catch (IOException e) {
          return false;
        }
      }

      @Override
      public void close() {
        client.close();
        gateway.close();
      }
    };
  }
}
