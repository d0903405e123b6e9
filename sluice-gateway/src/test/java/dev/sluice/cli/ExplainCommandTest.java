package dev.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** {@code sluice explain} end to end through the real command line, always with a fixed --now. */
class ExplainCommandTest {
  static final String NOW = "2026-10-21T07:27:00Z";
  private static final ObjectMapper JSON = new ObjectMapper();

  static JsonNode explainJson(String... args) throws Exception {
    List<String> all = new ArrayList<>(List.of("explain", "--json", "--now", NOW));
    all.addAll(List.of(args));
    CliRun r = CliRun.of(all.toArray(String[]::new));
    assertThat(r.err()).isEmpty();
    assertThat(r.exit()).isZero();
    return JSON.readTree(r.out());
  }

  @Test
  void theIssuesExampleGivesTheExactServerDelayAndTheSeedsScopeRecord() throws Exception {
    JsonNode j = explainJson("--status", "429", "-H", "Retry-After: Wed, 21 Oct 2026 07:28:00 GMT",
        "-H", "RateLimit: \"default\";r=0;t=30");

    assertThat(j.get("verdict").asText()).isEqualTo("rate_limited");
    assertThat(j.get("retry_allowed").asBoolean()).isTrue();
    assertThat(j.get("delay_seconds").get("min").asDouble()).isEqualTo(60.0);
    assertThat(j.get("delay_seconds").get("max").asDouble()).isEqualTo(60.0);
    assertThat(j.get("delay_source").asText()).isEqualTo("retry-after");
    JsonNode scope = j.get("scope_update");
    assertThat(scope.fieldNames()).toIterable()
        .containsExactly("provider", "scope", "request_class", "next_allowed_at", "remaining", "reset_after_seconds", "source");
    assertThat(scope.get("next_allowed_at").asText()).isEqualTo("2026-10-21T07:28:00Z");
    assertThat(scope.get("remaining").asLong()).isZero();
    assertThat(scope.get("source").asText()).isEqualTo("HTTP 429 Retry-After");
    assertThat(j.get("flags")).isEmpty();
    assertThat(j.get("reason").asText()).isNotBlank();
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', value = {
    "delta-seconds | 90 | 90",
    "IMF-fixdate   | Wed, 21 Oct 2026 07:28:30 GMT | 90",
    "RFC 850       | Wednesday, 21-Oct-26 07:28:30 GMT | 90",
    "asctime       | Wed Oct 21 07:28:30 2026 | 90",
  })
  void everyRetryAfterFormGivesTheSameDelay(String form, String value, double seconds) throws Exception {
    JsonNode j = explainJson("--status", "503", "-H", "Retry-After: " + value);
    assertThat(j.get("delay_seconds").get("min").asDouble()).as(form).isEqualTo(seconds);
    assertThat(j.get("delay_source").asText()).isEqualTo("retry-after");
    assertThat(j.get("verdict").asText()).isEqualTo("unavailable");
    assertThat(j.get("scope_update").isNull()).as("a 503 does not hold the scope").isTrue();
  }

  @Test
  void aDateInThePastIsClockSkewAndWaitsTheMinimumNotZero() throws Exception {
    JsonNode j = explainJson("--status", "429", "-H", "Retry-After: Wed, 21 Oct 2026 07:00:00 GMT");
    assertThat(j.get("flags").toString()).contains("clock_skew");
    assertThat(j.get("delay_seconds").get("min").asDouble()).isEqualTo(1.0);
  }

  @Test
  void anAbsurdDelayIsCappedAndFlaggedThenEndsTheReadsBudget() throws Exception {
    JsonNode j = explainJson("--status", "429", "-H", "Retry-After: 999999");
    assertThat(j.get("flags").toString()).contains("capped");
    assertThat(j.get("retry_allowed").asBoolean()).isFalse();
    assertThat(j.get("outcome").asText()).isEqualTo("budget_exhausted");
    assertThat(j.get("delay_seconds").isNull()).isTrue();
    assertThat(j.get("reason").asText()).contains("3600 s").contains("90 s");
  }

  @Test
  void garbageHeadersAreIgnoredAndFlaggedAndBackoffTakesOver() throws Exception {
    JsonNode j = explainJson("--status", "503", "-H", "Retry-After: soon", "-H", "RateLimit: ;;;", "--attempt", "2", "--waited", "12.5");
    assertThat(j.get("flags").toString()).contains("malformed_header_ignored");
    assertThat(j.get("delay_source").asText()).isEqualTo("backoff");
    assertThat(j.get("delay_seconds").get("min").asDouble()).isZero();
    assertThat(j.get("delay_seconds").get("max").asDouble()).isEqualTo(4.0);
    assertThat(j.get("waited_seconds").asDouble()).isEqualTo(12.5);
  }

  @Test
  void aTimedOutWriteWithoutKeyOrLookupEscalatesAndIsNeverRetried() throws Exception {
    JsonNode j = explainJson("--failure", "read_timeout", "--method", "POST");
    assertThat(j.get("verdict").asText()).isEqualTo("outcome_unknown");
    assertThat(j.get("request_class").asText()).isEqualTo("uncertain_write");
    assertThat(j.get("retry_allowed").asBoolean()).isFalse();
    assertThat(j.get("action").asText()).isEqualTo("escalate");
    assertThat(j.get("request_sent").asBoolean()).isTrue();
    assertThat(j.get("response_received").asBoolean()).isFalse();
  }

  @Test
  void withTheConfigTheRouteDecidesClassScopeAndReconciliation() throws Exception {
    String config = ConfigCommandTest.example().toString();
    JsonNode rateLimited = explainJson("--config", config, "--provider", "billing-api", "--path", "/v1/transfers", "--method", "POST",
        "--status", "429", "-H", "Retry-After: 10");
    JsonNode reset = explainJson("--config", config, "--provider", "billing-api", "--path", "/v1/transfers", "--method", "POST",
        "--failure", "reset_after_send");

    assertThat(rateLimited.get("request_class").asText()).isEqualTo("idempotent_write");
    assertThat(rateLimited.get("scope_update").get("provider").asText()).isEqualTo("billing-api");
    assertThat(rateLimited.get("scope_update").get("scope").asText()).isEqualTo("account:ops-team");
    assertThat(rateLimited.get("delay_seconds").get("max").asDouble()).isEqualTo(10.0);
    assertThat(reset.get("action").asText()).isEqualTo("reconcile");
    assertThat(reset.get("outcome").asText()).isEqualTo("reconciliation_required");
  }

  @Test
  void textOutputNamesTheVerdictTheDelayAndTheFlags() {
    CliRun r = CliRun.of("explain", "--now", NOW, "--status", "429", "-H", "Retry-After: Wed, 21 Oct 2026 07:00:00 GMT");
    assertThat(r.exit()).isZero();
    assertThat(r.out()).contains("verdict       rate_limited").contains("delay         between 1 and 2 s")
        .contains("clock_skew (Retry-After)").contains("using the minimum delay of 1 s").contains("\"source\":\"HTTP 429 Retry-After\"");
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', value = {
    "unknown status text | --status abc | --status: expected an HTTP status code 100-599, got 'abc'",
    "status out of range | --status 42 | --status: expected an HTTP status code 100-599, got 42",
    "malformed -H        | --status 429 -H nocolon | -H: expected 'Name: value', got 'nocolon'",
    "bad --now           | --status 429 --now yesterday | --now: expected an RFC 3339 time",
    "bad --waited        | --status 429 --waited -3 | --waited: expected seconds >= 0",
    "unknown class       | --status 429 --class writeish | --class: unknown request class 'writeish'",
    "both or neither     | --attempt 2 | give exactly one of --status CODE or --failure KIND",
    "unknown failure     | --failure boom | --failure: expected one of",
    "path without config | --status 429 --path /x | --path needs --config FILE",
  })
  void badInputGetsOneClearLineAndExitTwo(String what, String args, String message) {
    CliRun r = CliRun.of(("explain " + args).split(" "));
    assertThat(r.exit()).as(what).isEqualTo(2);
    assertThat(r.out()).isEmpty();
    assertThat(r.err().lines().count()).as(what + ": " + r.err()).isEqualTo(1);
    assertThat(r.err()).startsWith("sluice explain: ").contains(message).doesNotContain("Exception").doesNotContain("\tat ");
  }

  @Test
  void helpDescribesEveryOption() {
    CliRun r = CliRun.of("explain", "--help");
    assertThat(r.exit()).isZero();
    for (String opt : List.of("--status", "--failure", "--header", "--method", "--class", "--config", "--provider", "--path",
        "--attempt", "--waited", "--deadline", "--now", "--json", "--body")) {
      assertThat(r.out()).contains(opt);
    }
  }
}
