package dev.sluice.core.policy;

import dev.sluice.core.retry.Backoff;
import dev.sluice.core.headers.RetryAfterPolicy;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

/** A hand-built policy is held to the same invariants as a loaded one. */
class PolicyRecordsTest {

  @Test
  void aBuiltPolicyNeedsTheClassesOfTheUnmatchedRouteRule() {
    assertThatThrownBy(() -> Policy.builder().requestClass(new RequestClass("read", 4, Duration.ofSeconds(90), List.of())).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("request class 'uncertain_write' is required: unmatched routes use it");
  }

  @Test
  void aBuiltPolicyChecksRouteClassesAndAgentProviders() {
    Provider p = Provider.builder("api", "https://api.example.com").route(Route.builder("GET", "/x", "nope").build()).build();
    assertThatThrownBy(() -> Policy.builder().provider(p).build()).hasMessageContaining("class 'nope' is not defined");

    Agent a = new Agent("bot", new SecretRef.Env("T"), List.of("missing"));
    assertThatThrownBy(() -> Policy.builder().agent(a).build()).hasMessageContaining("lists provider 'missing', which is not defined");
  }

  @Test
  void aBuiltProviderRefusesDuplicateRoutesAndImpossibleLookups() {
    assertThatThrownBy(() -> Provider.builder("api", "https://api.example.com")
        .route(Route.builder("GET", "/x/{a}", "read").build())
        .route(Route.builder("GET", "/x/{b}", "read").build())
        .build()).hasMessageContaining("declares GET /x/{b} twice");
    assertThatThrownBy(() -> Provider.builder("api", "https://api.example.com")
        .route(Route.builder("POST", "/x", "uncertain_write").lookup("GET", "/x?k={idempotency_key}").build())
        .build()).hasMessageContaining("{idempotency_key} needs the provider's idempotency_header");
  }

  @Test
  void theBaseUrlLosesItsTrailingSlash() {
    assertThat(Provider.builder("api", "https://api.example.com/v2/").build().baseUrl().toString()).isEqualTo("https://api.example.com/v2");
  }

  @Test
  void recordInvariantsHaveClearMessages() {
    assertThatThrownBy(() -> new RequestClass("read", 0, Duration.ZERO, List.of())).hasMessageContaining("at least 1");
    assertThatThrownBy(() -> new RequestClass("read", 1, Duration.ZERO, List.of(99))).hasMessageContaining("100-599");
    assertThatThrownBy(() -> new SharedScope(-1, 2)).hasMessageContaining("max_delayed_requests");
    assertThatThrownBy(() -> new SharedScope(0, 0)).hasMessageContaining("max_concurrent_requests");
    assertThatThrownBy(() -> new Rate(10, Duration.ofSeconds(1), 1.0, OptionalInt.empty())).hasMessageContaining("[0, 1)");
    assertThatThrownBy(() -> new RetryAfterPolicy(Duration.ZERO, Duration.ofHours(1))).hasMessageContaining("positive");
    assertThatThrownBy(() -> new Backoff(Duration.ofSeconds(2), Duration.ofSeconds(1))).hasMessageContaining("at least base");
    assertThatThrownBy(() -> new Credential("Authorization", "Bearer sk-CANARY", new SecretRef.Env("T")))
        .hasMessage("credential.format must contain {secret} exactly once");
    assertThatThrownBy(() -> new SecretRef.Env("sk-CANARY")).message().doesNotContain("CANARY");
    assertThatThrownBy(() -> new Lookup("POST", LookupTemplate.compile("/x?k={idempotency_key}"))).hasMessageContaining("GET or HEAD");
    assertThatThrownBy(() -> Route.builder("POST", "/x", "uncertain_write").immutable(true).build()).hasMessageContaining("immutable");
    assertThatThrownBy(() -> OperationIdSource.jsonPointer("id")).hasMessageContaining("RFC 6901");
    assertThatThrownBy(() -> new Agent("bot", new SecretRef.Env("T"), List.of())).hasMessageContaining("at least one provider");
  }

  @Test
  void aCredentialRendersTheSecretIntoTheFormat() {
    Credential c = new Credential("Authorization", "Bearer {secret}", new SecretRef.Env("T"));

    assertThat(c.render("abc")).isEqualTo("Bearer abc");
    assertThat(c.toString()).doesNotContain("abc");
  }

  @Test
  void listenAddressesRoundTrip() {
    assertThat(ListenAddress.parse("[::1]:7070")).isEqualTo(new ListenAddress("::1", 7070));
    assertThat(ListenAddress.parse("[::1]:7070").toString()).isEqualTo("[::1]:7070");
    assertThat(ListenAddress.parse("localhost:0").port()).isZero();
    assertThatThrownBy(() -> ListenAddress.parse("127.0.0.1")).hasMessageContaining("HOST:PORT");
    assertThatThrownBy(() -> ListenAddress.parse("[localhost]:1")).hasMessageContaining("only for IPv6");
  }

  @Test
  void quotaMatchersCompareStatusPointerAndValue() {
    QuotaExhaustedMatcher code = new QuotaExhaustedMatcher(429, Optional.of("/error/code"), Optional.of("insufficient_quota"), QuotaReset.DAILY);
    QuotaExhaustedMatcher number = new QuotaExhaustedMatcher(403, Optional.of("/remaining"), Optional.of(new BigDecimal("0")), QuotaReset.EXPLICIT);
    QuotaExhaustedMatcher exists = new QuotaExhaustedMatcher(402, Optional.of("/billing"), Optional.empty(), QuotaReset.BILLING);
    Map<String, Object> body = Map.of("/error/code", "insufficient_quota", "/remaining", 0L, "/billing", Map.of());

    assertThat(code.matches(429, p -> Optional.ofNullable(body.get(p)))).isTrue();
    assertThat(code.matches(503, p -> Optional.ofNullable(body.get(p)))).isFalse();
    assertThat(code.matches(429, p -> Optional.of("rate_limit_exceeded"))).isFalse();
    assertThat(number.matches(403, p -> Optional.of(0.0))).isTrue();
    assertThat(number.matches(403, p -> Optional.of(1))).isFalse();
    assertThat(exists.matches(402, p -> Optional.ofNullable(body.get(p)))).isTrue();
    assertThat(exists.matches(402, p -> Optional.empty())).isFalse();
  }

  @Test
  void policyBuilderDefaultsAreTheDocumentedOnes() {
    Policy p = Policy.builder().build();

    assertThat(p.listen().toString()).isEqualTo("127.0.0.1:7070");
    assertThat(p.dataDir()).isEqualTo(Path.of("./sluice-data"));
    assertThat(p.store()).isEmpty();
    assertThat(p.requestClasses()).isEqualTo(RequestClass.seedDefaults());
    assertThat(p.sharedScope()).isEqualTo(new SharedScope(25, 2));
    assertThat(p.retryAfter()).isEqualTo(new RetryAfterPolicy(Duration.ofSeconds(1), Duration.ofSeconds(3600)));
    assertThat(p.backoff()).isEqualTo(new Backoff(Duration.ofSeconds(1), Duration.ofSeconds(60)));
  }
}
