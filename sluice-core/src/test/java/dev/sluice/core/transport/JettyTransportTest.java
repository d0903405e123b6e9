package dev.sluice.core.transport;

import static dev.sluice.core.transport.RawServer.reset;
import static dev.sluice.core.transport.RawServer.respond;
import static dev.sluice.core.transport.RawServer.truncated;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.core.classify.AttemptResult;
import dev.sluice.core.classify.Classifier;
import dev.sluice.core.classify.TransportFailure;
import dev.sluice.core.classify.Verdict;
import dev.sluice.core.engine.AttemptRequest;
import dev.sluice.core.http.Headers;
import dev.sluice.core.scope.ScopeId;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;

/**
 * The HTTP transport against a byte-exact socket server: what goes on the wire, that the client
 * never acts on its own (no redirect, no challenge answered, no cookie, no resend), and that each
 * failure says whether the request had left.
 */
class JettyTransportTest {
  private static final ScopeId SCOPE = new ScopeId("api", "account:test");
  private static final String SECRET = "s3cr3t-canary-7f1e";

  private JettyTransport transport;

  @AfterEach
  void stop() {
    if (transport != null) {
      transport.close();
    }
  }

  private JettyTransport start(URI base, TransportSettings settings) {
    ProviderEndpoint ep = ProviderEndpoint.of(base).withCredential(new CredentialHeader("Authorization", "Bearer " + SECRET))
        .withIdempotencyHeader("Idempotency-Key");
    transport = JettyTransport.start(settings, Map.of("api", ep));
    return transport;
  }

  private JettyTransport start(URI base) {
    return start(base, TransportSettings.defaults());
  }

  private static AttemptRequest get(String target, String... headers) {
    return new AttemptRequest(1, "task-1", SCOPE, "GET", target, Headers.of(headers), new byte[0], 1, Optional.empty());
  }

  private static AttemptResult await(CompletableFuture<AttemptResult> f) throws Exception {
    return f.get(10, TimeUnit.SECONDS);
  }

  @Test
  void theTargetIsAppendedToTheBaseUrlAndTheCredentialReplacesAnythingTheAgentSent() throws Exception {
    try (RawServer server = new RawServer(respond(200, "{\"ok\":true}", "X-Reply", "1"))) {
      start(URI.create(server.base() + "/api/"), TransportSettings.defaults().withTaskHeader("Sluice-Task"));
      AttemptResult r = await(transport.send(get("/v1/invoices/inv%201?expand=lines",
          "Authorization", "Bearer agent-own-token", "Host", "evil.example", "Connection", "upgrade", "Upgrade", "h2c",
          "Sluice-Task", "forged", "X-Request-Note", "a", "x-request-note", "b")));

      assertThat(r).isInstanceOfSatisfying(AttemptResult.Response.class, resp -> {
        assertThat(resp.status()).isEqualTo(200);
        assertThat(resp.headers().first("X-Reply")).hasValue("1");
        assertThat(new String(resp.bodyPrefix(), StandardCharsets.UTF_8)).isEqualTo("{\"ok\":true}");
      });
      RawServer.RawRequest seen = server.requests().get(0);
      assertThat(seen.requestLine()).isEqualTo("GET /api/v1/invoices/inv%201?expand=lines HTTP/1.1");
      assertThat(seen.header("Authorization")).containsExactly("Bearer " + SECRET);
      assertThat(seen.header("Host")).containsExactly("127.0.0.1:" + server.base().getPort());
      assertThat(seen.header("Upgrade")).isEmpty();
      assertThat(seen.header("Sluice-Task")).containsExactly("task-1");
      assertThat(seen.header("X-Request-Note")).containsExactly("a", "b");
      assertThat(seen.header("User-Agent")).containsExactly("sluice");
      assertThat(seen.header("Accept-Encoding")).as("no content decoding: the provider's bytes pass as they are").isEmpty();
      assertThat(seen.header("Idempotency-Key")).as("a read carries no key").isEmpty();
    }
  }

  @Test
  void aWriteCarriesItsBodyContentTypeAndTheActionsIdempotencyKey() throws Exception {
    try (RawServer server = new RawServer(respond(201, "{}"))) {
      start(server.base());
      byte[] body = "{\"amount\":5}".getBytes(StandardCharsets.UTF_8);
      AttemptRequest post = new AttemptRequest(7, "task-1", SCOPE, "POST", "/v1/transfers",
          Headers.of("Content-Type", "application/json", "Idempotency-Key", "agent-forged"), body, 2, Optional.of("key-42"));
      assertThat(await(transport.send(post))).isInstanceOf(AttemptResult.Response.class);
      RawServer.RawRequest seen = server.requests().get(0);
      assertThat(seen.requestLine()).isEqualTo("POST /v1/transfers HTTP/1.1");
      assertThat(seen.bodyText()).isEqualTo("{\"amount\":5}");
      assertThat(seen.header("Content-Type")).containsExactly("application/json");
      assertThat(seen.header("Content-Length")).containsExactly("12");
      assertThat(seen.header("Idempotency-Key")).containsExactly("key-42");
    }
  }

  @Test
  void aRedirectIsReturnedToTheEngineNeverFollowed() throws Exception {
    try (RawServer server = new RawServer(respond(302, "", "Location", "/elsewhere"), respond(200, "followed"))) {
      start(server.base());
      AttemptResult r = await(transport.send(get("/v1/x")));
      assertThat(r).isInstanceOfSatisfying(AttemptResult.Response.class, resp -> assertThat(resp.status()).isEqualTo(302));
      assertThat(new Classifier(List.of()).classify(r).verdict()).isEqualTo(Verdict.REDIRECT_REFUSED);
      assertThat(server.requests()).hasSize(1);
    }
  }

  @Test
  void anAuthenticationChallengeIsReturnedNeverAnswered() throws Exception {
    try (RawServer server = new RawServer(respond(401, "{}", "WWW-Authenticate", "Basic realm=\"api\""), respond(200, "answered"))) {
      start(server.base());
      AttemptResult r = await(transport.send(get("/v1/x")));
      assertThat(r).isInstanceOfSatisfying(AttemptResult.Response.class, resp -> assertThat(resp.status()).isEqualTo(401));
      assertThat(server.requests()).hasSize(1);
    }
  }

  @Test
  void cookiesAreNeverKeptOrReplayedAcrossAttempts() throws Exception {
    try (RawServer server = new RawServer(respond(200, "", "Set-Cookie", "session=abc; Path=/"), respond(200, ""))) {
      start(server.base());
      await(transport.send(get("/v1/a")));
      await(transport.send(get("/v1/b")));
      assertThat(server.requests()).hasSize(2);
      assertThat(server.requests().get(1).header("Cookie")).isEmpty();
    }
  }

  @Test
  void aRefusedConnectionIsConnectFailedAndNothingWasSent() throws Exception {
    int port;
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = s.getLocalPort();
    }
    start(URI.create("http://127.0.0.1:" + port));
    AttemptResult r = await(transport.send(get("/v1/x")));
    assertThat(r).isEqualTo(new AttemptResult.Failure(TransportFailure.CONNECT_FAILED));
    assertThat(new Classifier(List.of()).classify(r).verdict()).isEqualTo(Verdict.RESET_BEFORE_SEND);
  }

  @Test
  void aConnectThatTimesOutIsConnectTimeoutAndNothingWasSent() throws Exception {
    // A listening socket that never accepts, with its accept queue filled: the kernel drops new
    // SYNs, so a connect hangs until the client gives up.
    try (ServerSocket full = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      List<java.net.Socket> fillers = new java.util.ArrayList<>();
      boolean queueFull = false;
      try {
        for (int i = 0; i < 8 && !queueFull; i++) {
          java.net.Socket s = new java.net.Socket();
          fillers.add(s);
          try {
            s.connect(full.getLocalSocketAddress(), 200);
          } catch (java.net.SocketTimeoutException e) {
            queueFull = true;
          }
        }
        Assumptions.assumeTrue(queueFull, "this system accepts connections beyond the backlog; no way to make a connect hang");
        start(URI.create("http://127.0.0.1:" + full.getLocalPort()), TransportSettings.defaults().withConnectTimeout(Duration.ofMillis(300)));
        AttemptResult r = await(transport.send(get("/v1/x")));
        assertThat(r).isEqualTo(new AttemptResult.Failure(TransportFailure.CONNECT_TIMEOUT));
        assertThat(new Classifier(List.of()).classify(r).verdict()).isEqualTo(Verdict.TIMEOUT_BEFORE_SEND);
      } finally {
        for (java.net.Socket s : fillers) {
          s.close();
        }
      }
    }
  }

  /**
   * Repeated because the first version lost this race: Jetty can fail the exchange on the reset
   * before it reports the request committed, and the attempt came out as "nothing sent" although
   * the server had read all of it.
   */
  @RepeatedTest(25)
  void aResetAfterTheServerReadTheRequestIsResetAfterSendAndTheClientDoesNotResend() throws Exception {
    try (RawServer server = new RawServer(reset(), respond(200, "resent"))) {
      start(server.base());
      AttemptResult r = await(transport.send(new AttemptRequest(1, "t", SCOPE, "POST", "/records", Headers.empty(),
          "{}".getBytes(StandardCharsets.UTF_8), 1, Optional.empty())));
      assertThat(r).isEqualTo(new AttemptResult.Failure(TransportFailure.RESET_AFTER_SEND));
      assertThat(new Classifier(List.of()).classify(r).verdict()).isEqualTo(Verdict.OUTCOME_UNKNOWN);
      // The future completing with the failure is the client giving up: nothing more can follow.
      assertThat(server.requests()).hasSize(1);
      assertThat(server.connections()).isEqualTo(1);
    }
  }

  @Test
  void silenceAfterTheRequestLeftIsAReadTimeout() throws Exception {
    try (RawServer server = RawServer.withScript(s -> List.of(s.hang()))) {
      start(server.base(), TransportSettings.defaults().withReadTimeout(Duration.ofMillis(300)));
      AttemptResult r = await(transport.send(get("/v1/slow")));
      assertThat(r).isEqualTo(new AttemptResult.Failure(TransportFailure.READ_TIMEOUT));
      assertThat(server.requests()).hasSize(1);
    }
  }

  @Test
  void aBodyCutShortIsATruncatedResponse() throws Exception {
    try (RawServer server = new RawServer(truncated(100, 10))) {
      start(server.base());
      assertThat(await(transport.send(get("/v1/x")))).isEqualTo(new AttemptResult.Failure(TransportFailure.TRUNCATED_RESPONSE));
    }
  }

  @Test
  void aBodyOverTheCapIsAbortedAndReportedWithItsStatusAndNoBodyWhileOneAtTheCapIsKept() throws Exception {
    String sixteen = "0123456789abcdef";
    try (RawServer server = new RawServer(respond(200, sixteen), respond(201, sixteen + "!"))) {
      start(server.base(), TransportSettings.defaults().withMaxResponseBytes(16));
      assertThat(await(transport.send(get("/v1/a")))).isInstanceOfSatisfying(AttemptResult.Response.class,
          resp -> assertThat(resp.bodyPrefix()).hasSize(16));
      // The head arrived: the status stands (not truncated_response, which means "outcome unknown").
      assertThat(await(transport.send(get("/v1/b")))).isInstanceOfSatisfying(AttemptResult.Response.class, resp -> {
        assertThat(resp.status()).isEqualTo(201);
        assertThat(resp.bodyTooLarge()).isTrue();
        assertThat(resp.bodyPrefix()).isEmpty();
      });
    }
    assertThatThrownBy(() -> TransportSettings.defaults().withMaxResponseBytes(AttemptResult.Response.BODY_PREFIX_LIMIT + 1))
        .hasMessageContaining("body cap");
  }

  @Test
  void cancellingTheFutureAbortsTheExchange() throws Exception {
    try (RawServer server = RawServer.withScript(s -> List.of(s.hang()))) {
      start(server.base());
      CompletableFuture<AttemptResult> f = transport.send(get("/v1/slow"));
      while (server.requests().isEmpty()) {
        Thread.onSpinWait(); // the request must be on the server before the cancel means anything
      }
      f.cancel(true);
      assertThat(server.awaitClientClose(5_000)).as("the client closed the connection").isTrue();
    }
  }

  @Test
  void anAttemptForAProviderWithoutEndpointSendsNothing() throws Exception {
    try (RawServer server = new RawServer(respond(200, ""))) {
      start(server.base());
      AttemptRequest other = new AttemptRequest(1, "t", new ScopeId("other", "s"), "GET", "/x", Headers.empty(), new byte[0], 1, Optional.empty());
      assertThat(await(transport.send(other))).isEqualTo(new AttemptResult.Failure(TransportFailure.CONNECT_FAILED));
      assertThat(server.requests()).isEmpty();
    }
  }

  @Test
  void theCredentialValueNeverAppearsInTextAndALineBreakInItIsRefusedWithoutEchoingIt() {
    assertThat(new CredentialHeader("Authorization", "Bearer " + SECRET).toString()).doesNotContain(SECRET);
    assertThat(ProviderEndpoint.of(URI.create("https://api.example.com/")).withCredential(new CredentialHeader("X-Key", SECRET)))
        .satisfies(ep -> {
          assertThat(ep.toString()).doesNotContain(SECRET);
          assertThat(ep.baseUrl()).hasToString("https://api.example.com");
        });
    assertThatThrownBy(() -> new CredentialHeader("Authorization", "Bearer " + SECRET + "\r\nX-Injected: 1"))
        .hasMessageContaining("control character").hasMessageNotContaining(SECRET);
  }

  @Test
  void aHostNameThatResolvesToALinkLocalOrMetadataAddressIsRefusedAtConnectTimeAndNothingIsSent() throws Exception {
    try (RawServer server = new RawServer(respond(200, "reached"), respond(200, "reached"))) {
      int port = server.base().getPort();
      URI named = URI.create("http://provider.test:" + port);
      // The same name, resolved by a resolver the test controls: to the loopback server alone (control),
      // then to the loopback server *and* a forbidden address: without the guard the client would
      // connect to the first, reachable one, so the server's empty log proves the refusal.
      java.util.concurrent.atomic.AtomicReference<String> answer = new java.util.concurrent.atomic.AtomicReference<>("127.0.0.1");
      HostResolver resolver = host -> {
        assertThat(host).isEqualTo("provider.test");
        return answer.get().equals("127.0.0.1") ? List.of(InetAddress.getByName("127.0.0.1"))
            : List.of(InetAddress.getByName("127.0.0.1"), InetAddress.getByName(answer.get()));
      };
      start(named, TransportSettings.defaults().withHostResolver(resolver));
      assertThat(await(transport.send(get("/v1/control")))).isInstanceOf(AttemptResult.Response.class);
      for (String forbidden : List.of("169.254.169.254", "169.254.0.1", "fe80::1", "fd00:ec2::254", "::ffff:169.254.169.254", "100.100.100.200")) {
        answer.set(forbidden);
        transport.close();
        start(named, TransportSettings.defaults().withHostResolver(resolver)); // a fresh client: no pooled connection to reuse
        assertThat(await(transport.send(get("/v1/metadata")))).as(forbidden).isEqualTo(new AttemptResult.Failure(TransportFailure.CONNECT_FAILED));
      }
      assertThat(server.requests()).extracting(r -> r.requestLine()).containsExactly("GET /v1/control HTTP/1.1");
    }
  }
}
