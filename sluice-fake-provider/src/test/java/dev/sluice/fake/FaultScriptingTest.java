package dev.sluice.fake;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Faults scripted per route, per scope, for the nth matching request and the next N. */
class FaultScriptingTest {

  @RegisterExtension
  static final FakeProviderExtension FAKE =
      FakeProviderExtension.of(() -> FakeProvider.builder().quota(Quota.perSecond(1000, 1000)));

  static List<Integer> statuses(Http http, int n, String path, String... headers) {
    List<Integer> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      out.add(http.get(path, headers).statusCode());
    }
    return out;
  }

  @Test
  void theNthMatchingRequestAndTheNextOnesAreStruck(FakeProvider fake) {
    fake.addFault(FaultRule.of(Fault.unavailable()).path("/records").nth(2).times(3));
    Http http = new Http(fake.baseUri());
    List<Integer> got = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      got.add(http.get("/records").statusCode());
      http.get("/v1/invoices"); // does not match: does not count
    }
    assertThat(got).containsExactly(200, 503, 503, 503, 200, 200);
    assertThat(fake.attempts()).filteredOn(a -> a.path().equals("/records"))
        .extracting(a -> a.faults().isEmpty() ? "-" : a.faults().get(0))
        .containsExactly("-", "unavailable", "unavailable", "unavailable", "-", "-");
  }

  @Test
  void aRuleForOneScopeSparesTheOthers(FakeProvider fake) {
    fake.addFault(FaultRule.of(Fault.unavailable()).scope(ScopeBy.credentialScope("Bearer a")).always());
    Http http = new Http(fake.baseUri());
    assertThat(statuses(http, 3, "/records", "Authorization", "Bearer a")).containsOnly(503);
    assertThat(statuses(http, 3, "/records", "Authorization", "Bearer b")).containsOnly(200);
  }

  @Test
  void pathTemplatesMethodsAndFamiliesNarrowARule(FakeProvider fake) {
    fake.addFault(FaultRule.of(Fault.unavailable()).path("/v1/invoices/{id}").always());
    fake.addFault(FaultRule.of(Fault.timeout()).family("records").method("DELETE").always());
    Http http = new Http(fake.baseUri());
    assertThat(http.get("/v1/invoices").statusCode()).isEqualTo(200);
    assertThat(http.get("/v1/invoices/inv_1").statusCode()).isEqualTo(503);
    assertThat(http.post("/records", "{}").statusCode()).isEqualTo(201);
    assertThat(http.send("DELETE", "/records/rec_1", null).statusCode()).isEqualTo(408);
    assertThat(fake.records("records")).singleElement().satisfies(r -> assertThat(r.deleted()).isFalse());
  }

  @Test
  void a503BurstWithAndWithoutRetryAfterConsumesNoQuota() {
    try (FakeProvider fake = FakeProvider.builder().quota(Quota.perSecond(1, 1))
        .clock(ManualClock.at(java.time.Instant.parse("2025-01-01T00:00:00Z")))
        .fault(FaultRule.of(Fault.unavailable(7)).nth(1).times(2))
        .fault(FaultRule.of(Fault.unavailable()).nth(3)).start()) {
      Http http = new Http(fake.baseUri());
      HttpResponse<String> first = http.get("/records");
      assertThat(first.statusCode()).isEqualTo(503);
      assertThat(first.headers().firstValue("Retry-After")).hasValue("7");
      assertThat(first.headers().firstValue("RateLimit")).isEmpty();
      assertThat(http.get("/records").statusCode()).isEqualTo(503);
      HttpResponse<String> third = http.get("/records");
      assertThat(third.statusCode()).isEqualTo(503);
      assertThat(third.headers().firstValue("Retry-After")).isEmpty();
      // The bucket (burst 1) is still full: none of the 503s took a token.
      assertThat(http.get("/records").statusCode()).isEqualTo(200);
    }
  }

  @Test
  void aRateLimitedFaultAnswersExactly429WithTheRetryAfterGivenAndTakesNoQuota() {
    try (FakeProvider fake = FakeProvider.builder().quota(Quota.perSecond(1, 1))
        .clock(ManualClock.at(java.time.Instant.parse("2025-01-01T00:00:00Z")))
        .fault(FaultRule.of(Fault.rateLimited(Duration.ofSeconds(10))).path("/v1/invoices/{id}"))
        .fault(FaultRule.of(Fault.rateLimited(Duration.ofMillis(1500))).path("/records"))
        .start()) {
      Http http = new Http(fake.baseUri());
      HttpResponse<String> first = http.get("/v1/invoices/inv_1");
      assertThat(first.statusCode()).isEqualTo(429);
      assertThat(first.headers().allValues("Retry-After")).containsExactly("10");
      assertThat(first.headers().firstValue("RateLimit")).isEmpty();
      assertThat(first.body()).contains("rate_limit_exceeded");
      // The bucket (burst 1) is still full: the scripted 429 took no token; the rule struck once.
      assertThat(http.get("/v1/invoices/inv_1").statusCode()).isEqualTo(200);
      assertThat(fake.attempts()).extracting(Attempt::status).containsExactly(429, 200);
      assertThat(fake.attempts().get(0).faults()).containsExactly("rate_limited");
      // A fraction of a second is rounded up, never down: a client waiting that long is never early.
      fake.reset();
      assertThat(http.get("/records").headers().allValues("Retry-After")).containsExactly("2");
    }
  }

  @Test
  void aRateLimitedFaultMayAnswer403AndOmitRetryAfter() {
    assertThat(Fault.rateLimited(403, java.util.OptionalLong.empty()).status()).isEqualTo(403);
    assertThatThrownBy(() -> Fault.rateLimited(503, java.util.OptionalLong.of(1))).hasMessageContaining("429 or 403");
    try (FakeProvider fake = FakeProvider.builder().fault(FaultRule.of(Fault.rateLimited(403, java.util.OptionalLong.empty()))).start()) {
      HttpResponse<String> r = new Http(fake.baseUri()).get("/records");
      assertThat(r.statusCode()).isEqualTo(403);
      assertThat(r.headers().firstValue("Retry-After")).isEmpty();
    }
  }

  @Test
  void a408ClosesTheConnection(FakeProvider fake) throws IOException {
    fake.addFault(FaultRule.of(Fault.timeout()));
    String raw = new String(Http.raw(fake.baseUri(),
        "GET /records HTTP/1.1\r\nHost: fake\r\n\r\n"), StandardCharsets.ISO_8859_1);
    assertThat(raw).startsWith("HTTP/1.1 408 ");
    assertThat(raw.toLowerCase()).contains("\r\nconnection: close\r\n");
  }

  @Test
  void aResetBeforeReadingProcessesNothingAndTheClientSeesAReset(FakeProvider fake) {
    fake.addFault(FaultRule.of(Fault.reset()).method("POST"));
    Http http = new Http(fake.baseUri());
    assertThatThrownBy(() -> http.sendOrThrow("POST", "/records", "{\"n\":1}")).isInstanceOf(IOException.class);
    assertThat(fake.records("records")).isEmpty();
    assertThat(fake.attempts()).singleElement().satisfies(a -> {
      assertThat(a.result()).isEqualTo(Attempt.Result.RESET);
      assertThat(a.status()).isZero();
      assertThat(a.faults()).containsExactly("reset");
    });
  }

  @Test
  void onTheWireAResetIsATcpReset(FakeProvider fake) {
    fake.addFault(FaultRule.of(Fault.reset()));
    assertThatThrownBy(() -> Http.raw(fake.baseUri(), Http.rawPost("/records", "{}")))
        .isInstanceOf(java.net.SocketException.class)
        .hasMessageContaining("reset");
  }

  @Test
  void aTruncatedResponsePromisesMoreBytesThanItSends(FakeProvider fake) throws IOException {
    fake.addFault(FaultRule.of(Fault.truncate(10)).method("POST"));
    byte[] got = Http.raw(fake.baseUri(), Http.rawPost("/records", "{\"client_reference\":\"r-1\"}"));
    String text = new String(got, StandardCharsets.ISO_8859_1);
    int end = text.indexOf("\r\n\r\n");
    assertThat(text).startsWith("HTTP/1.1 201 ");
    Matcher m = Pattern.compile("(?i)\r\ncontent-length: (\\d+)\r\n").matcher(text.substring(0, end + 2));
    assertThat(m.find()).isTrue();
    int promised = Integer.parseInt(m.group(1));
    int sent = got.length - (end + 4);
    assertThat(sent).isEqualTo(10);
    assertThat(promised).isGreaterThan(sent);
    assertThat(fake.records("records")).hasSize(1); // the write happened
    assertThat(fake.attempts()).singleElement().satisfies(a -> assertThat(a.result()).isEqualTo(Attempt.Result.TRUNCATED));
  }

  @Test
  void aTruncatedResponseFailsTheHttpClient(FakeProvider fake) {
    fake.addFault(FaultRule.of(Fault.truncate()).method("POST"));
    Http http = new Http(fake.baseUri());
    assertThatThrownBy(() -> http.sendOrThrow("POST", "/records", "{}")).isInstanceOf(IOException.class);
  }

  @Test
  void latencyDelaysTheAnswer(FakeProvider fake) {
    fake.addFault(FaultRule.of(Fault.latency(Duration.ofMillis(300))));
    Http http = new Http(fake.baseUri());
    long start = System.nanoTime();
    HttpResponse<String> r = http.get("/records");
    long tookMs = (System.nanoTime() - start) / 1_000_000;
    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(tookMs).isGreaterThanOrEqualTo(300);
    assertThat(fake.attempts()).singleElement().satisfies(a -> assertThat(a.faults()).containsExactly("latency"));
  }

  @Test
  void aSlowBodyArrivesWholeInTimedChunks(FakeProvider fake) {
    fake.addFault(FaultRule.of(Fault.slowBody(Duration.ofMillis(40), 16)));
    Http http = new Http(fake.baseUri());
    long start = System.nanoTime();
    HttpResponse<String> r = http.get("/v1/invoices/inv_1");
    long tookMs = (System.nanoTime() - start) / 1_000_000;
    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(Http.json(r).get("id").asText()).isEqualTo("inv_1");
    int pauses = (r.body().getBytes(StandardCharsets.UTF_8).length - 1) / 16;
    assertThat(pauses).isGreaterThanOrEqualTo(3);
    assertThat(tookMs).isGreaterThanOrEqualTo(40L * pauses);
  }

  @Test
  void configuredRulesComeBackAfterAResetAndRunTimeRulesDoNot() {
    try (FakeProvider fake = FakeProvider.builder().fault(FaultRule.of(Fault.unavailable()).path("/records")).start()) {
      fake.addFault(FaultRule.of(Fault.timeout()).path("/v1/invoices"));
      Http http = new Http(fake.baseUri());
      assertThat(http.get("/records").statusCode()).isEqualTo(503);
      assertThat(http.get("/records").statusCode()).isEqualTo(200);
      fake.reset();
      assertThat(http.get("/records").statusCode()).isEqualTo(503);
      assertThat(http.get("/v1/invoices").statusCode()).isEqualTo(200);
      fake.clearFaults();
      fake.reset();
      assertThat(http.get("/records").statusCode()).isEqualTo(503);
    }
  }
}
