package dev.sluice.fake;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The YAML config file: every key documented in docs/FAKE_PROVIDER.md, unknown keys refused. */
class ConfigFileTest {

  @TempDir
  Path dir;

  Path write(String yaml) throws IOException {
    Path f = dir.resolve("fake.yaml");
    Files.writeString(f, yaml);
    return f;
  }

  @Test
  void aFullFileIsRead() throws IOException {
    Path f = write("""
        host: 127.0.0.1
        port: 8099
        inspect: true
        dialect: openai
        retry_after: http-date
        scope_by: header:X-Account
        quota: {requests: 100, per_seconds: 60, burst: 20}
        token_quota: {tokens: 40000, per_seconds: 60}
        daily_quota: {requests: 1000}
        concurrency: {limit: 2, status: 429, retry_after_seconds: 30}
        over_quota:
          status: 429
          body: '{"error":{"code":"rate_limit_exceeded"}}'
        balance: 500
        accepted_credentials: ["Bearer test-token"]
        families:
          transfers:
            idempotency: false
            quota: {requests: 5, per_seconds: 1}
          customers: {path: /v1/customers, mutable: false}
        faults:
          - {kind: unavailable, path: /v1/transfers, nth: 2, times: 3, retry_after_seconds: 5}
          - {kind: drop_after_commit, method: post, family: records}
          - {kind: latency, delay_ms: 250, times: all}
          - {kind: slow_body, delay_ms: 20, bytes: 8, scope: acme}
          - {kind: rate_limited, path: "/v1/invoices/{id}", retry_after_seconds: 10}
        """);
    FakeProviderConfig c = FakeProviderConfig.load(f);
    assertThat(c.port()).isEqualTo(8099);
    assertThat(c.inspect()).isTrue();
    assertThat(c.dialect()).isEqualTo(Dialect.OPENAI);
    assertThat(c.retryAfterFormat()).isEqualTo(RetryAfterFormat.HTTP_DATE);
    assertThat(c.scopeBy()).isEqualTo(ScopeBy.header("X-Account"));
    assertThat(c.quota()).isEqualTo(new Quota(100, Duration.ofSeconds(60), 20));
    assertThat(c.tokenQuota()).contains(Quota.of(40000, Duration.ofSeconds(60)));
    assertThat(c.dailyQuota()).contains(DailyQuota.of(1000));
    assertThat(c.concurrency()).hasValueSatisfying(cl -> {
      assertThat(cl.limit()).isEqualTo(2);
      assertThat(cl.status()).isEqualTo(429);
      assertThat(cl.retryAfterSeconds()).isEqualTo(30);
    });
    assertThat(c.overQuota().body()).isEqualTo("{\"error\":{\"code\":\"rate_limit_exceeded\"}}");
    assertThat(c.initialBalance()).isEqualTo(500);
    assertThat(c.acceptedCredentials()).containsExactly("Bearer test-token");
    assertThat(c.families().get("transfers").idempotency()).isFalse();
    assertThat(c.families().get("transfers").quota()).contains(Quota.perSecond(5, 5));
    assertThat(c.families().get("customers").path()).isEqualTo("/v1/customers");
    assertThat(c.families().get("customers").idPrefix()).isEqualTo("cus_");
    assertThat(c.families().get("records")).isEqualTo(RouteFamily.defaults().get("records"));
    assertThat(c.faults()).containsExactly(
        FaultRule.of(Fault.unavailable(5)).path("/v1/transfers").nth(2).times(3),
        FaultRule.of(Fault.dropAfterCommit()).method("POST").family("records"),
        FaultRule.of(Fault.latency(Duration.ofMillis(250))).always(),
        FaultRule.of(Fault.slowBody(Duration.ofMillis(20), 8)).scope("acme"),
        FaultRule.of(Fault.rateLimited(Duration.ofSeconds(10))).path("/v1/invoices/{id}"));
  }

  @Test
  void anEmptyFileIsTheDefaults() throws IOException {
    assertThat(FakeProviderConfig.load(write(""))).isEqualTo(FakeProviderConfig.defaults());
    assertThat(FakeProviderConfig.load(write("# nothing\n"))).isEqualTo(FakeProviderConfig.defaults());
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', textBlock = """
      quotas: {requests: 1}                        | quotas: unknown key; expected one of: accepted_credentials, balance, concurrency,
      quota: {requests: ten}                       | quota.requests: expected an integer, got 'ten'
      quota: {requests: 1.5}                       | quota.requests: expected an integer
      quota: {requests: 0}                         | quota: quota requests must be at least 1, got 0
      quota: {burst: 3}                            | quota.requests: expected an integer of at least 1 (requests per period)
      quota: {requests: 5, per_seconds: -1}        | quota.per_seconds: expected a positive number of seconds (at most a year), got -1.0
      dialect: klingon                             | dialect: expected one of ietf, legacy, openai, anthropic, github, none; got 'klingon'
      retry_after: minutes                         | retry_after: expected one of seconds, http-date, none; got 'minutes'
      scope_by: ip                                 | scope_by: expected authorization, family or header:NAME; got 'ip'
      port: 70000                                  | port: expected a port number 0-65535, got 70000
      inspect: [yes]                               | inspect: expected true or false
      faults: [{kind: lag}]                        | faults[0].kind: expected one of latency, hold, unavailable, rate_limited, timeout, reset, drop_after_commit, truncate, slow_body; got 'lag'
      faults: [{kind: reset}, {kind: latency}]     | faults[1]: latency needs delay_ms
      faults: [{kind: reset, times: never}]        | faults[0].times: expected an integer of at least 1, or all; got 'never'
      faults: [{kind: reset, nth: 0}]              | faults[0]: nth counts from 1, got 0
      faults: [{kind: reset, family: nope}]        | faults[0].family: expected one of the families [records, transfers, invoices, balance, operations]; got 'nope'
      faults: [{kind: unavailable, status: 404}]   | faults[0]: unavailable status must be 500-599, got 404
      families: {records: {path: /elsewhere}}      | families.records.path: the built-in family 'records' lives at /records and cannot move; got '/elsewhere'
      families: {widgets: {mutable: true}}         | families.widgets.path: expected a path such as /v1/customers (a new family needs one)
      families: {widgets: {path: widgets}}         | families.widgets: family path must look like /v1/things (no trailing slash, no template, not under /__fake), got 'widgets'
      families: {records: {colour: red}}           | families.records.colour: unknown key; expected one of: debits_balance, id_prefix, idempotency, mutable, path, quota
      over_quota: {body: 'not json'}               | over_quota.body: expected a JSON document (the response body)
      concurrency: {limit: 2, status: 500}         | concurrency: concurrency refusal status must be 403 or 429, got 500
      'dialect: ietf\ndialect: github'             | line 2, column 8: not valid YAML/JSON (Duplicate field 'dialect')
      'quota: {requests: 1'                        | line 1, column 20: not valid YAML/JSON (while parsing a flow mapping; expected ',' or '}', but got <stream end>)
      'faults: [{kind: reset, path: /a/{id}}]'     | line 1, column
      """)
  void aBadFileIsOneLineNamingTheFileTheKeyAndWhatWasExpected(String yaml, String expected) throws IOException {
    Path f = write(yaml.replace("\\n", "\n"));
    assertThatThrownBy(() -> FakeProviderConfig.load(f))
        .isInstanceOf(FakeConfigException.class)
        .hasMessageStartingWith(f + ": " + expected)
        .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
  }

  @Test
  void aMissingFileIsNamed() {
    Path f = dir.resolve("missing.yaml");
    assertThatThrownBy(() -> FakeProviderConfig.load(f))
        .isInstanceOf(FakeConfigException.class)
        .hasMessage(f + ": cannot read the file (NoSuchFileException)");
  }

  @Test
  void credentialsNeverAppearInErrors() throws IOException {
    Path f = write("accepted_credentials: [\"Bearer sk-live-canary\"]\nquota: {requests: x}\n");
    assertThatThrownBy(() -> FakeProviderConfig.load(f)).message().doesNotContain("canary");
  }

  @Test
  void aLoadedFileStartsAProviderThatBehavesAsConfigured() throws IOException {
    Path f = write("""
        dialect: legacy
        quota: {requests: 2, per_seconds: 1}
        faults:
          - {kind: unavailable, status: 502, path: "/v1/invoices/{id}"}
        """);
    try (FakeProvider fake = FakeProvider.builder().configFile(f).start()) {
      Http http = new Http(fake.baseUri());
      assertThat(http.get("/v1/invoices/inv_1").statusCode()).isEqualTo(502);
      assertThat(http.get("/records").headers().firstValue("RateLimit-Limit")).hasValue("2");
    }
  }
}
