package dev.sluice.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.fake.FakeProvider;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/**
 * The gateway reaches only configured providers' base URLs: every trick below is refused with a
 * problem document, and the fake provider's log proves nothing was sent.
 */
class NotAnOpenProxyTest {
  static GatewayHarness h;

  @BeforeAll
  static void start() {
    h = new GatewayHarness(FakeProvider.builder(), "routes: []\n");
  }

  @AfterAll
  static void stop() {
    h.close();
  }

  @BeforeEach
  void clean() {
    h.fake.reset();
  }

  private static String rawGet(String target, String host) {
    return "GET " + target + " HTTP/1.1\r\nHost: " + host + "\r\nAuthorization: Bearer " + GatewayHarness.AGENT_TOKEN
        + "\r\nConnection: close\r\n\r\n";
  }

  private static String hostOfGateway() {
    return h.gateway.uri().getAuthority();
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "/api/../other/v1/invoices/inv_1", "/api/%2e%2e/other/v1/invoices/inv_1", "/api/%2E%2E/x", "/api/v1%2Finvoices/inv_1",
      "/api/v1/%2finvoices", "/api/./v1/invoices/inv_1", "/api/v1/invoices/%252e%252e", "/api//v1/invoices"})
  void dotSegmentsAndEncodedSlashesAreRefusedAndNothingIsSent(String target) {
    String answer = h.raw(rawGet(target, hostOfGateway()));
    assertThat(answer).startsWith("HTTP/1.1 4").contains("application/problem+json").contains("\"request_sent\":false");
    assertThat(h.fake.attempts()).isEmpty();
  }

  @Test
  void anAbsoluteFormTargetNamingAnotherHostIsRefused() {
    String target = h.fake.baseUri() + "/v1/invoices/inv_1";
    String answer = h.raw(rawGet(target, hostOfGateway()));
    assertThat(answer).startsWith("HTTP/1.1 400").contains("application/problem+json").contains("\"request_sent\":false");
    String viaGateway = h.raw(rawGet("http://" + hostOfGateway() + "/api/v1/invoices/inv_1", "example.com"));
    assertThat(viaGateway).startsWith("HTTP/1.1 400").contains("application/problem+json");
    assertThat(h.fake.attempts()).isEmpty();
  }

  @Test
  void connectIsRefused() {
    String answer = h.raw("CONNECT " + h.fake.baseUri().getAuthority() + " HTTP/1.1\r\nHost: " + h.fake.baseUri().getAuthority()
        + "\r\nAuthorization: Bearer " + GatewayHarness.AGENT_TOKEN + "\r\nConnection: close\r\n\r\n");
    assertThat(answer).startsWith("HTTP/1.1 4").contains("application/problem+json");
    assertThat(h.fake.attempts()).isEmpty();
  }

  @Test
  void anUnknownProviderAndAProviderNotListedForTheAgentGetTheSame403() {
    HttpResponse<String> unknown = h.get("/nope/v1/invoices/inv_1", GatewayHarness.AGENT_TOKEN);
    HttpResponse<String> notMine = h.get("/other/v1/invoices/inv_1", GatewayHarness.AGENT_TOKEN);
    for (HttpResponse<String> r : java.util.List.of(unknown, notMine)) {
      assertThat(r.statusCode()).isEqualTo(403);
      assertThat(r.headers().firstValue("Content-Type")).hasValue("application/problem+json");
      assertThat(r.body()).contains("\"type\":\"https://sluice.dev/problems/provider_not_allowed\"");
    }
    assertThat(h.fake.attempts()).isEmpty();
  }

  @Test
  void aMissingOrWrongTokenIs401WithoutEchoingTheToken() {
    HttpResponse<String> none = h.get("/api/v1/invoices/inv_1", null);
    HttpResponse<String> wrong = h.get("/api/v1/invoices/inv_1", "wrong-token-value-zzz");
    HttpResponse<String> providerSecret = h.get("/api/v1/invoices/inv_1", GatewayHarness.SECRET);
    for (HttpResponse<String> r : java.util.List.of(none, wrong, providerSecret)) {
      assertThat(r.statusCode()).isEqualTo(401);
      assertThat(r.body()).contains("unauthorized").doesNotContain("wrong-token-value-zzz").doesNotContain(GatewayHarness.SECRET);
      assertThat(r.headers().map().toString()).doesNotContain("wrong-token-value-zzz").doesNotContain(GatewayHarness.SECRET);
    }
    assertThat(h.fake.attempts()).isEmpty();
  }
}
