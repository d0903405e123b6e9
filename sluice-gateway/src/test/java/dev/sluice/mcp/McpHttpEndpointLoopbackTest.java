package dev.sluice.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The gateway accepts a hub's tokens only from loopback: what counts as loopback, without any name look-up. */
class McpHttpEndpointLoopbackTest {
  @Test
  void loopbackAddressesAreRecognisedAndAnythingElseIsNot() {
    assertThat(McpHttpEndpoint.loopback("127.0.0.1")).isTrue();
    assertThat(McpHttpEndpoint.loopback("127.8.9.10")).isTrue();
    assertThat(McpHttpEndpoint.loopback("[::1]")).isTrue();
    assertThat(McpHttpEndpoint.loopback("0:0:0:0:0:0:0:1")).isTrue();
    assertThat(McpHttpEndpoint.loopback("10.0.0.7")).isFalse();
    assertThat(McpHttpEndpoint.loopback("192.168.1.20")).isFalse();
    assertThat(McpHttpEndpoint.loopback("[2001:db8::1]")).isFalse();
    assertThat(McpHttpEndpoint.loopback("localhost")).as("a name is not resolved").isFalse();
    assertThat(McpHttpEndpoint.loopback("")).isFalse();
    assertThat(McpHttpEndpoint.loopback(null)).isFalse();
  }
}
