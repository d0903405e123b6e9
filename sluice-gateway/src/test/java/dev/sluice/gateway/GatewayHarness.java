package dev.sluice.gateway;

import dev.sluice.core.Sluice;
import dev.sluice.core.policy.ListenAddress;
import dev.sluice.core.policy.Policy;
import dev.sluice.core.policy.PolicyLoader;
import dev.sluice.core.transport.TransportSettings;
import dev.sluice.fake.FakeProvider;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/**
 * A fake provider and a gateway in front of it, on the wall clock, over real sockets. The policy
 * has provider {@code api} (scope {@code account:acme}, credential {@link #SECRET}), provider
 * {@code other}, agent {@code bot} (may use {@code api} only) with {@link #AGENT_TOKEN}, and the
 * operator token {@link #OPERATOR_TOKEN}.
 */
final class GatewayHarness implements AutoCloseable {
  static final String SECRET = "canary-secret-7d1f0c9e2b";
  static final String AGENT_TOKEN = "agent-token-bot-0123456789";
  static final String OPERATOR_TOKEN = "operator-token-0123456789";

  final FakeProvider fake;
  final Gateway gateway;
  final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  GatewayHarness(FakeProvider.Builder fake, String apiYaml) {
    this(fake, apiYaml, "");
  }

  GatewayHarness(FakeProvider.Builder fakeBuilder, String apiYaml, String topYaml) {
    this(fakeBuilder, apiYaml, topYaml, Map.of(), (b, env) -> b);
  }

  /**
   * With more environment variables (tokens, keys) and a say in how Sluice is built (e.g. {@code
   * b -> b.journalFromPolicy().auditFromPolicy(env)} for a journal and an audit log in {@code data_dir}).
   */
  GatewayHarness(FakeProvider.Builder fakeBuilder, String apiYaml, String topYaml, Map<String, String> moreEnv,
      java.util.function.BiFunction<Sluice.Builder, java.util.function.Function<String, Optional<String>>, Sluice.Builder> sluice) {
    this.fake = fakeBuilder.start();
    Policy policy = policy(fake, apiYaml, topYaml);
    Map<String, String> env = new java.util.HashMap<>(Map.of("API_TOKEN", SECRET, "BOT_TOKEN", AGENT_TOKEN, "OPS_TOKEN", OPERATOR_TOKEN));
    env.putAll(moreEnv);
    java.util.function.Function<String, Optional<String>> lookup = n -> Optional.ofNullable(env.get(n));
    this.gateway = Gateway.builder(policy)
        .env(lookup)
        .listen(new ListenAddress("127.0.0.1", 0))
        .stopTimeout(Duration.ofSeconds(1))
        .sluice(sluice.apply(Sluice.builder().random(42).secrets(lookup), lookup))
        .transportSettings(TransportSettings.defaults().withTaskHeader("Sluice-Task"))
        .start();
  }

  static Policy policy(FakeProvider fake, String apiYaml, String topYaml) {
    String yaml = topYaml
        + "operator: {token_env: OPS_TOKEN}\n"
        + "providers:\n"
        + "  api:\n"
        + "    base_url: " + fake.baseUri() + "\n"
        + "    credential: {header: Authorization, format: \"Bearer {secret}\", secret_env: API_TOKEN}\n"
        + "    scope: account:acme\n"
        + apiYaml.stripIndent().lines().map(l -> "    " + l + "\n").reduce("", String::concat)
        + "  other:\n"
        + "    base_url: " + fake.baseUri() + "\n"
        + "agents:\n"
        + "  - {id: bot, token_env: BOT_TOKEN, providers: [api]}\n";
    return PolicyLoader.parse(yaml, "gateway-test.yaml");
  }

  URI uri(String pathAndQuery) {
    return URI.create(gateway.uri() + pathAndQuery);
  }

  HttpResponse<String> send(HttpRequest.Builder b) {
    try {
      return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      throw new IllegalStateException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  HttpResponse<String> get(String path, String token) {
    HttpRequest.Builder b = HttpRequest.newBuilder(uri(path)).timeout(Duration.ofSeconds(30));
    if (token != null) {
      b.header("Authorization", "Bearer " + token);
    }
    return send(b);
  }

  /** Sends raw bytes (a request line the JDK client would never write) and returns the whole answer. */
  String raw(String request) {
    try (Socket s = new Socket(gateway.uri().getHost(), gateway.uri().getPort())) {
      s.setSoTimeout(10_000);
      OutputStream out = s.getOutputStream();
      out.write(request.getBytes(StandardCharsets.ISO_8859_1));
      out.flush();
      InputStream in = s.getInputStream();
      return new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  @Override
  public void close() {
    gateway.close();
    fake.close();
  }
}
