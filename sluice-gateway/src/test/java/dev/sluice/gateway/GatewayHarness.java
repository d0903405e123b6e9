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
 * {@code other}, agents {@code bot} and {@code bot2} (may use {@code api} only) with {@link
 * #AGENT_TOKEN} and {@link #AGENT2_TOKEN}, and the operator token {@link #OPERATOR_TOKEN}. With
 * {@link Options#dataDir} the gateway journals and audits there, and {@link #restart()} resumes.
 */
final class GatewayHarness implements AutoCloseable {
  static final String SECRET = "canary-secret-7d1f0c9e2b";
  static final String AGENT_TOKEN = "agent-token-bot-0123456789";
  static final String OPERATOR_TOKEN = "operator-token-0123456789";
  static final String AGENT2_TOKEN = "agent-token-bot2-0123456789";

  final FakeProvider fake;
  final Policy policy;
  final Options options;
  Gateway gateway;
  final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  static final Map<String, String> ENV = Map.of("API_TOKEN", SECRET, "BOT_TOKEN", AGENT_TOKEN, "BOT2_TOKEN", AGENT2_TOKEN, "OPS_TOKEN", OPERATOR_TOKEN);

  /**
   * What a test changes: a data directory (journal and audit log there, so a restart on it
   * resumes), the facade builder, the transport settings, the gateway builder, and whether the
   * harness waits for readiness.
   */
  record Options(java.nio.file.Path dataDir, java.util.function.UnaryOperator<Sluice.Builder> sluice,
      java.util.function.UnaryOperator<TransportSettings> transport, java.util.function.UnaryOperator<Gateway.Builder> gateway, boolean awaitReady,
      Map<String, String> env) {
    static Options defaults() {
      return new Options(null, b -> b, t -> t, g -> g, true, Map.of());
    }

    Options(java.nio.file.Path dataDir, java.util.function.UnaryOperator<Sluice.Builder> sluice,
        java.util.function.UnaryOperator<TransportSettings> transport, java.util.function.UnaryOperator<Gateway.Builder> gateway, boolean awaitReady) {
      this(dataDir, sluice, transport, gateway, awaitReady, Map.of());
    }

    /** More environment variables, beside {@link #ENV}. */
    Options env(Map<String, String> more) {
      return new Options(dataDir, sluice, transport, gateway, awaitReady, more);
    }

    Options dataDir(java.nio.file.Path d) {
      return new Options(d, sluice, transport, gateway, awaitReady, env);
    }

    Options sluice(java.util.function.UnaryOperator<Sluice.Builder> f) {
      return new Options(dataDir, f, transport, gateway, awaitReady, env);
    }

    Options transport(java.util.function.UnaryOperator<TransportSettings> f) {
      return new Options(dataDir, sluice, f, gateway, awaitReady, env);
    }

    Options gateway(java.util.function.UnaryOperator<Gateway.Builder> f) {
      return new Options(dataDir, sluice, transport, f, awaitReady, env);
    }

    Options bindOnly() {
      return new Options(dataDir, sluice, transport, gateway, false, env);
    }
  }

  GatewayHarness(FakeProvider.Builder fake, String apiYaml) {
    this(fake, apiYaml, "");
  }

  GatewayHarness(FakeProvider.Builder fakeBuilder, String apiYaml, String topYaml) {
    this(fakeBuilder, apiYaml, topYaml, Options.defaults());
  }

  GatewayHarness(FakeProvider.Builder fakeBuilder, String apiYaml, String topYaml, Options options) {
    this.fake = fakeBuilder.start();
    this.options = options;
    String top = options.dataDir() == null ? topYaml : "data_dir: " + options.dataDir() + "\n" + topYaml;
    this.policy = policy(fake, apiYaml, top);
    this.gateway = startGateway();
  }

  /** A gateway on the harness's policy and fake; with a data directory, on its journal and audit log. */
  Gateway startGateway() {
    java.util.function.Function<String, Optional<String>> env = lookup(options.env());
    Sluice.Builder sb = Sluice.builder().random(42).secrets(env);
    if (options.dataDir() != null) {
      sb.journalFromPolicy().auditFromPolicy(n -> Optional.empty());
    }
    Gateway.Builder gb = Gateway.builder(policy)
        .env(env)
        .listen(new ListenAddress("127.0.0.1", 0))
        .stopTimeout(Duration.ofSeconds(10))
        .sluice(options.sluice().apply(sb))
        .transportSettings(options.transport().apply(TransportSettings.defaults().withTaskHeader("Sluice-Task")));
    gb = options.gateway().apply(gb);
    return options.awaitReady() ? gb.start() : gb.bind();
  }

  /** Stops the gateway gracefully and starts a new one on the same policy, fake and data directory. */
  void restart() {
    gateway.close();
    gateway = startGateway();
  }

  /**
   * With more environment variables (tokens, keys) and a say in how Sluice is built (e.g. {@code
   * (b, env) -> b.journalFromPolicy().auditFromPolicy(env)} for a journal and an audit log in {@code data_dir}).
   */
  GatewayHarness(FakeProvider.Builder fakeBuilder, String apiYaml, String topYaml, Map<String, String> moreEnv,
      java.util.function.BiFunction<Sluice.Builder, java.util.function.Function<String, Optional<String>>, Sluice.Builder> sluice) {
    this(fakeBuilder, apiYaml, topYaml, Options.defaults().env(moreEnv).sluice(b -> sluice.apply(b, lookup(moreEnv))));
  }

  /** {@link #ENV} and {@code more}, as a look-up. */
  static java.util.function.Function<String, Optional<String>> lookup(Map<String, String> more) {
    Map<String, String> all = new java.util.HashMap<>(ENV);
    all.putAll(more);
    return n -> Optional.ofNullable(all.get(n));
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
        + "  - {id: bot, token_env: BOT_TOKEN, providers: [api]}\n"
        + "  - {id: bot2, token_env: BOT2_TOKEN, providers: [api]}\n";
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
