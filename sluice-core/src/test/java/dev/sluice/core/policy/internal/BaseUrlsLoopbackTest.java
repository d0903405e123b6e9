package dev.sluice.core.policy.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import org.junit.jupiter.api.Test;

/**
 * What counts as loopback: for a credential sent over plain http (a base URL's host) and for a
 * peer's address (the gateway's MCP hub tokens). Never a name look-up.
 */
class BaseUrlsLoopbackTest {
  @Test
  void loopbackLiteralsInEverySpellingAndNothingElse() {
    for (String yes : new String[] {"127.0.0.1", "127.8.9.10", "::1", "[::1]", "0:0:0:0:0:0:0:1", "[0:0:0:0:0:0:0:1]"}) {
      assertThat(BaseUrls.isLoopbackLiteral(yes)).as(yes).isTrue();
    }
    for (String no : new String[] {"10.0.0.7", "192.168.1.20", "128.0.0.1", "[2001:db8::1]", "localhost", "127.example.com", "", null}) {
      assertThat(BaseUrls.isLoopbackLiteral(no)).as(String.valueOf(no)).isFalse();
    }
  }

  @Test
  void aCredentialMayTravelInClearOnlyToLoopback() {
    assertThat(BaseUrls.isHttpsOrLoopback(URI.create("https://api.example.com"))).isTrue();
    assertThat(BaseUrls.isHttpsOrLoopback(URI.create("http://localhost:8080"))).isTrue();
    assertThat(BaseUrls.isHttpsOrLoopback(URI.create("http://127.0.0.1:8080"))).isTrue();
    assertThat(BaseUrls.isHttpsOrLoopback(URI.create("http://[::1]:8080"))).isTrue();
    assertThat(BaseUrls.isHttpsOrLoopback(URI.create("http://api.example.com"))).isFalse();
    assertThat(BaseUrls.isHttpsOrLoopback(URI.create("http://10.0.0.7"))).isFalse();
  }
}
