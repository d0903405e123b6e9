package dev.sluice.core.policy;

import dev.sluice.core.retry.Backoff;
import dev.sluice.core.headers.RetryAfterPolicy;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.core.headers.RateLimitDialect;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The shipped example and the seed's own YAML are accepted, and mean what they say. */
class ExampleAndSeedTest {

  static Path example() {
    // Tests run with the module as working directory; the example lives at the repository root.
    Path p = Path.of("..", "examples", "sluice.yaml");
    assertThat(p).exists();
    return p;
  }

  @Test
  void theShippedExampleLoads() {
    Policy policy = PolicyLoader.load(example());

    assertThat(policy.listen()).isEqualTo(new ListenAddress("127.0.0.1", 7070));
    assertThat(policy.dataDir()).isEqualTo(Path.of("./sluice-data"));
    assertThat(policy.store()).isEmpty();
    assertThat(policy.requestClasses()).isEqualTo(RequestClass.seedDefaults());
    assertThat(policy.sharedScope()).isEqualTo(SharedScope.SEED_DEFAULT);
    assertThat(policy.retryAfter()).isEqualTo(RetryAfterPolicy.defaults());
    assertThat(policy.backoff()).isEqualTo(Backoff.SEED_DEFAULT);
    assertThat(policy.providers()).containsOnlyKeys("billing-api", "records-api");
    assertThat(policy.agents()).extracting(Agent::id).containsExactly("inventory-bot", "records-sync");
  }

  @Test
  void theExampleBillingProviderHasEveryPart() {
    Provider billing = PolicyLoader.load(example()).provider("billing-api").orElseThrow();

    assertThat(billing.baseUrl().toString()).isEqualTo("http://127.0.0.1:8099");
    assertThat(billing.credential()).contains(new Credential("Authorization", "Bearer {secret}", new SecretRef.Env("BILLING_API_TOKEN")));
    assertThat(billing.scope()).isEqualTo("account:ops-team");
    assertThat(billing.rate()).isPresent();
    assertThat(billing.rate().get().requests()).isEqualTo(100);
    assertThat(billing.rate().get().per()).isEqualTo(Duration.ofSeconds(60));
    assertThat(billing.rate().get().interactiveReserve()).isEqualTo(0.2);
    assertThat(billing.rate().get().burst()).hasValue(10);
    assertThat(billing.idempotencyHeader()).contains("Idempotency-Key");
    assertThat(billing.rateLimitHeaders()).isEqualTo(RateLimitDialect.AUTO);
    assertThat(billing.quotaExhausted()).containsExactly(new QuotaExhaustedMatcher(
        429, Optional.of("/error/code"), Optional.of("insufficient_quota"), QuotaReset.DAILY));
    assertThat(billing.routes()).hasSize(5);

    Route invoices = billing.routes().get(0);
    assertThat(invoices.method()).isEqualTo("GET");
    assertThat(invoices.path().template()).isEqualTo("/v1/invoices/{id}");
    assertThat(invoices.requestClass()).isEqualTo("read");
    assertThat(invoices.immutable()).isTrue();

    Route transfers = billing.routes().get(2);
    assertThat(transfers.requestClass()).isEqualTo("idempotent_write");
    assertThat(transfers.lookup().orElseThrow().path().expand(java.util.Map.of("idempotency_key", "k 1")))
        .isEqualTo("/v1/transfers?idempotency_key=k%201");
    assertThat(transfers.operationId()).contains(OperationIdSource.header("Operation-Id"));
    assertThat(billing.routes().get(4).approval()).isEqualTo(Approval.PER_CALL);
  }

  @Test
  void theExampleRecordsProviderReconcilesByExternalReference() {
    Provider records = PolicyLoader.load(example()).provider("records-api").orElseThrow();

    assertThat(records.supportsIdempotency()).isFalse();
    assertThat(records.scope()).isEqualTo("credential:records-api");
    assertThat(records.rateLimitHeaders()).isEqualTo(RateLimitDialect.IETF);
    assertThat(records.sharedScope()).isEqualTo(SharedScope.SEED_DEFAULT);
    RouteMatch create = records.classify("POST", "/records");
    assertThat(create.declared()).isTrue();
    assertThat(create.requestClass()).isEqualTo("uncertain_write");
    assertThat(create.route().externalReference()).contains("client_reference");
    assertThat(create.route().lookup().orElseThrow().path().template()).isEqualTo("/records?client_reference={external_reference}");
  }

  @Test
  void theSeedsRequestClassesBlockLoadsVerbatim() {
    String seed = """
        request_classes:
          read:
            max_attempts: 4
            max_wait_seconds: 90
            retry_statuses: [408, 429, 500, 502, 503, 504]
          idempotent_write:
            max_attempts: 3
            max_wait_seconds: 120
            retry_statuses: [408, 429, 502, 503, 504]
          uncertain_write:
            max_attempts: 1
            max_wait_seconds: 0
            retry_statuses: []
        shared_scope:
          max_delayed_requests: 25
          max_concurrent_requests: 2
        """;

    Policy policy = PolicyLoader.parse(seed, "seed.yaml");

    assertThat(policy.requestClasses()).containsOnlyKeys("read", "idempotent_write", "uncertain_write");
    RequestClass read = policy.requestClass("read");
    assertThat(read.maxAttempts()).isEqualTo(4);
    assertThat(read.maxWait()).isEqualTo(Duration.ofSeconds(90));
    assertThat(read.retryStatuses()).containsExactly(408, 429, 500, 502, 503, 504);
    RequestClass idem = policy.requestClass("idempotent_write");
    assertThat(idem.maxAttempts()).isEqualTo(3);
    assertThat(idem.maxWait()).isEqualTo(Duration.ofSeconds(120));
    assertThat(idem.retryStatuses()).containsExactly(408, 429, 502, 503, 504);
    RequestClass uncertain = policy.requestClass("uncertain_write");
    assertThat(uncertain.maxAttempts()).isEqualTo(1);
    assertThat(uncertain.maxWait()).isEqualTo(Duration.ZERO);
    assertThat(uncertain.retryStatuses()).isEmpty();
    assertThat(policy.sharedScope()).isEqualTo(new SharedScope(25, 2));
  }

  @Test
  void theSeedsDefaultsApplyWhenRequestClassesAndSharedScopeAreAbsent() {
    String yaml = """
        providers:
          api:
            base_url: https://api.example.com
        """;

    Policy policy = PolicyLoader.parse(yaml, "p.yaml");

    assertThat(policy.requestClasses()).isEqualTo(RequestClass.seedDefaults());
    assertThat(policy.requestClasses().keySet()).containsExactly("read", "idempotent_write", "uncertain_write");
    Provider api = policy.provider("api").orElseThrow();
    assertThat(api.sharedScope()).isEqualTo(new SharedScope(25, 2));
    assertThat(api.scope()).isEqualTo("credential:api");
    assertThat(api.credential()).isEmpty();
    assertThat(api.rateLimitHeaders()).isEqualTo(RateLimitDialect.AUTO);
    assertThat(api.routes()).isEmpty();
  }

  @Test
  void theDesignDocumentsExampleLoads() throws Exception {
    // DESIGN.md §4 is a public contract: its example must stay valid.
    Path design = Path.of("..", "..", "..", "shared", "DESIGN.md");
    String yaml = """
        listen: 127.0.0.1:7070            # gateway address
        data_dir: ./sluice-data           # embedded store (SQLite) and audit log
        # store: jdbc:postgresql://127.0.0.1:5432/sluice   # distributed mode

        request_classes:                  # the seed's block, verbatim
          read:             {max_attempts: 4, max_wait_seconds: 90,  retry_statuses: [408, 429, 500, 502, 503, 504]}
          idempotent_write: {max_attempts: 3, max_wait_seconds: 120, retry_statuses: [408, 429, 502, 503, 504]}
          uncertain_write:  {max_attempts: 1, max_wait_seconds: 0,   retry_statuses: []}

        providers:
          billing-api:
            base_url: https://billing.example.com
            credential:                   # injected by Sluice; the agent never sees it
              header: Authorization
              format: "Bearer {secret}"
              secret_env: BILLING_API_TOKEN        # or secret_file: /path
            scope: account:ops-team       # the shared pool; default: one pool per credential
            rate: {requests: 100, per_seconds: 60, interactive_reserve: 0.2}   # published quota, optional
            shared_scope:                 # the seed's block
              max_delayed_requests: 25
              max_concurrent_requests: 2
            idempotency_header: Idempotency-Key    # absent: the provider has no idempotency support
            routes:
              - {method: GET,  path: "/v1/invoices/{id}", class: read, immutable: true}   # may be coalesced
              - {method: POST, path: "/v1/transfers", class: idempotent_write,
                 lookup: {method: GET, path: "/v1/transfers?idempotency_key={idempotency_key}"}}
              - {method: POST, path: "/records", class: uncertain_write,
                 external_reference: client_reference,                # body field Sluice fills in
                 lookup: {method: GET, path: "/records?client_reference={external_reference}"}}
            # unmatched routes: GET/HEAD → read, anything else → uncertain_write

        agents:
          - id: inventory-bot
            token_env: SLUICE_TOKEN_INVENTORY_BOT
            providers: [billing-api]
        """;
    if (Files.exists(design)) {
      assertThat(Files.readString(design)).contains("lookup: {method: GET, path: \"/records?client_reference={external_reference}\"}}");
    }

    Policy policy = PolicyLoader.parse(yaml, "design.yaml");

    Provider billing = policy.provider("billing-api").orElseThrow();
    assertThat(billing.routes()).extracting(r -> r.method() + " " + r.path())
        .containsExactly("GET /v1/invoices/{id}", "POST /v1/transfers", "POST /records");
    assertThat(policy.agents()).containsExactly(new Agent("inventory-bot", new SecretRef.Env("SLUICE_TOKEN_INVENTORY_BOT"), List.of("billing-api")));
  }
}
