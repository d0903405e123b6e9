package dev.sluice.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.core.policy.PolicyException;
import dev.sluice.core.policy.PolicyLoader;
import org.junit.jupiter.api.Test;

/** The policy keys the gateway adds, and the addresses it refuses to reach. */
class PolicyForTheGatewayTest {
  static String provider(String baseUrl, String extra) {
    return "providers:\n  p:\n    base_url: " + baseUrl + "\n    credential: {secret_env: P_TOKEN}\n" + extra;
  }

  @Test
  void aCredentialOverPlainHttpToANonLoopbackHostIsRefusedUnlessAllowed() {
    assertThatThrownBy(() -> PolicyLoader.parse(provider("http://api.example.com", ""), "t.yaml"))
        .isInstanceOf(PolicyException.class).hasMessageContaining("plain http").hasMessageContaining("allow_plain_http");
    assertThat(PolicyLoader.parse(provider("http://api.example.com", "    allow_plain_http: true\n"), "t.yaml").provider("p").orElseThrow()
        .allowPlainHttp()).isTrue();
    PolicyLoader.parse(provider("https://api.example.com", ""), "t.yaml");
    PolicyLoader.parse(provider("http://127.0.0.1:8099", ""), "t.yaml");
    PolicyLoader.parse(provider("http://localhost:8099", ""), "t.yaml");
  }

  @Test
  void linkLocalAndMetadataAddressesAreRefusedEvenWhenConfigured() {
    for (String url : new String[] {"http://169.254.169.254", "https://169.254.169.254/latest", "http://metadata.google.internal", "http://[fe80::1]"}) {
      assertThatThrownBy(() -> PolicyLoader.parse("providers:\n  p:\n    base_url: \"" + url + "\"\n    allow_plain_http: true\n", "t.yaml"))
          .as(url).isInstanceOf(PolicyException.class).hasMessageContaining("link-local");
    }
  }

  @Test
  void operatorAndGatewayBlocksAreRead() {
    var policy = PolicyLoader.parse("operator: {token_env: OPS}\ngateway: {max_request_body_bytes: 10, max_response_body_bytes: 100, "
        + "max_request_headers: 5, max_header_bytes: 2048}\n", "t.yaml");
    assertThat(policy.gateway().operatorToken()).isPresent();
    assertThat(policy.gateway().maxRequestBodyBytes()).isEqualTo(10);
    assertThat(policy.gateway().maxResponseBodyBytes()).isEqualTo(100);
    assertThatThrownBy(() -> PolicyLoader.parse("gateway: {max_response_body_bytes: 70000}\n", "t.yaml")).isInstanceOf(PolicyException.class);
  }

  @Test
  void twoAgentsOrAnAgentAndAnOperatorSharingATokenAreRefusedAtStart() {
    // Regression (review): two agents on one token both acted as the first one.
    var twoAgents = PolicyLoader.parse("providers:\n  p: {base_url: \"http://127.0.0.1:9\"}\nagents:\n"
        + "  - {id: a, token_env: T_A, providers: [p]}\n  - {id: b, token_env: T_B, providers: [p]}\n", "t.yaml");
    java.util.Map<String, String> env = java.util.Map.of("T_A", "same-token-0123456789", "T_B", "same-token-0123456789", "OPS", "same-token-0123456789");
    assertThatThrownBy(() -> Gateway.builder(twoAgents).env(n -> java.util.Optional.ofNullable(env.get(n)))
        .listen(new dev.sluice.core.policy.ListenAddress("127.0.0.1", 0)).start())
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("agent 'b'").hasMessageContaining("also another agent's")
        .hasMessageNotContaining("same-token");
    var agentAndOperator = PolicyLoader.parse("operator: {token_env: OPS}\nproviders:\n  p: {base_url: \"http://127.0.0.1:9\"}\nagents:\n"
        + "  - {id: a, token_env: T_A, providers: [p]}\n", "t.yaml");
    assertThatThrownBy(() -> Gateway.builder(agentAndOperator).env(n -> java.util.Optional.ofNullable(env.get(n)))
        .listen(new dev.sluice.core.policy.ListenAddress("127.0.0.1", 0)).start())
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("also another operator's or an agent's").hasMessageNotContaining("same-token");
  }
}
