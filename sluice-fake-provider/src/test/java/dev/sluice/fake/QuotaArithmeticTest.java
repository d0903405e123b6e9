package dev.sluice.fake;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Token buckets per scope, on a settable clock: exactly the 429s the arithmetic predicts. */
class QuotaArithmeticTest {

  static final Instant T0 = Instant.parse("2025-03-01T12:00:00Z");

  static List<Integer> statuses(Http http, int n, String path, String... headers) {
    List<Integer> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      out.add(http.get(path, headers).statusCode());
    }
    return out;
  }

  static long count(List<Integer> statuses, int status) {
    return statuses.stream().filter(s -> s == status).count();
  }

  @ParameterizedTest(name = "{0} requests at {1}/s burst {2} on a frozen clock: {3} allowed")
  @CsvSource({
      "25, 10, 10, 10",
      "7,  5,  2,  2",
      "3,  1,  1,  1",
      "40, 100, 30, 30",
      "5,  10, 10, 5",
  })
  void aFrozenClockAllowsExactlyTheBurst(int n, int rate, int burst, int allowed) {
    ManualClock clock = ManualClock.at(T0);
    try (FakeProvider fake = FakeProvider.builder().clock(clock).quota(Quota.perSecond(rate, burst)).start()) {
      List<Integer> s = statuses(new Http(fake.baseUri()), n, "/records", "Authorization", "Bearer a");
      assertThat(count(s, 200)).isEqualTo(allowed);
      assertThat(count(s, 429)).isEqualTo(n - allowed);
      // Allowed requests come first: a refused request takes nothing from the bucket.
      assertThat(s.subList(0, allowed)).containsOnly(200);
      assertThat(fake.attempts()).hasSize(n);
    }
  }

  @Test
  void refillIsExactToTheNanosecond() {
    ManualClock clock = ManualClock.at(T0);
    try (FakeProvider fake = FakeProvider.builder().clock(clock).quota(Quota.perSecond(10, 10)).start()) {
      Http http = new Http(fake.baseUri());
      assertThat(statuses(http, 11, "/records")).containsExactly(200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 429);
      clock.advance(Duration.ofMillis(100).minusNanos(1)); // 0.999999990 of a token
      assertThat(http.get("/records").statusCode()).isEqualTo(429);
      clock.advance(Duration.ofNanos(1)); // exactly one token
      assertThat(statuses(http, 2, "/records")).containsExactly(200, 429);
      clock.advance(Duration.ofMillis(250)); // 2.5 tokens: two whole ones
      assertThat(statuses(http, 3, "/records")).containsExactly(200, 200, 429);
      clock.advance(Duration.ofMillis(50)); // the half token left plus half a token
      assertThat(statuses(http, 2, "/records")).containsExactly(200, 429);
    }
  }

  @Test
  void requestsSpacedAtTheRateAreNeverRefused() {
    ManualClock clock = ManualClock.at(T0);
    try (FakeProvider fake = FakeProvider.builder().clock(clock).quota(Quota.perSecond(4, 1)).start()) {
      Http http = new Http(fake.baseUri());
      List<Integer> s = new ArrayList<>();
      for (int i = 0; i < 40; i++) {
        s.add(http.get("/records").statusCode());
        clock.advance(Duration.ofMillis(250));
      }
      assertThat(s).containsOnly(200);
    }
  }

  @Test
  void aLongPeriodQuotaAdvertisesTheTimeToTheNextToken() {
    ManualClock clock = ManualClock.at(T0);
    try (FakeProvider fake = FakeProvider.builder().clock(clock).quota(Quota.of(3, Duration.ofSeconds(60))).start()) {
      Http http = new Http(fake.baseUri());
      assertThat(statuses(http, 3, "/records")).containsOnly(200);
      HttpResponse<String> refused = http.get("/records");
      assertThat(refused.statusCode()).isEqualTo(429);
      assertThat(refused.headers().firstValue("Retry-After")).hasValue("20"); // one token every 20 s
      clock.advance(Duration.ofSeconds(19).plusMillis(500));
      assertThat(http.get("/records").headers().firstValue("Retry-After")).hasValue("1"); // 0.5 s rounds up
      clock.advance(Duration.ofMillis(500));
      assertThat(http.get("/records").statusCode()).isEqualTo(200);
    }
  }

  @Test
  void theDefaultIsTenPerSecondBurstTenWithJsonErrorBody() {
    ManualClock clock = ManualClock.at(T0);
    try (FakeProvider fake = FakeProvider.builder().clock(clock).start()) {
      Http http = new Http(fake.baseUri());
      assertThat(count(statuses(http, 10, "/v1/invoices/inv_1"), 200)).isEqualTo(10);
      HttpResponse<String> r = http.get("/v1/invoices/inv_1");
      assertThat(r.statusCode()).isEqualTo(429);
      assertThat(r.headers().firstValue("Retry-After")).hasValue("1");
      assertThat(Http.json(r).at("/error/code").asText()).isEqualTo("rate_limit_exceeded");
    }
  }

  @Nested
  class Scopes {

    @Test
    void eachCredentialHasItsOwnBucket() {
      ManualClock clock = ManualClock.at(T0);
      try (FakeProvider fake = FakeProvider.builder().clock(clock).quota(Quota.perSecond(1, 3)).start()) {
        Http http = new Http(fake.baseUri());
        assertThat(statuses(http, 4, "/records", "Authorization", "Bearer alice")).containsExactly(200, 200, 200, 429);
        assertThat(statuses(http, 4, "/records", "Authorization", "Bearer bob")).containsExactly(200, 200, 200, 429);
        assertThat(fake.attempts()).extracting(Attempt::scope).containsOnly(
            ScopeBy.credentialScope("Bearer alice"), ScopeBy.credentialScope("Bearer bob"));
        assertThat(fake.attempts()).extracting(Attempt::scope).noneMatch(s -> s.contains("alice") || s.contains("bob"));
      }
    }

    @Test
    void anAccountHeaderScopeIsSharedByEveryCredentialOfTheAccount() {
      ManualClock clock = ManualClock.at(T0);
      try (FakeProvider fake = FakeProvider.builder().clock(clock).quota(Quota.perSecond(1, 2))
          .scopeBy(ScopeBy.header("X-Account")).start()) {
        Http http = new Http(fake.baseUri());
        assertThat(http.get("/records", "Authorization", "Bearer one", "X-Account", "acme").statusCode()).isEqualTo(200);
        assertThat(http.get("/records", "Authorization", "Bearer two", "X-Account", "acme").statusCode()).isEqualTo(200);
        assertThat(http.get("/records", "Authorization", "Bearer three", "X-Account", "acme").statusCode()).isEqualTo(429);
        assertThat(http.get("/records", "Authorization", "Bearer one", "X-Account", "other").statusCode()).isEqualTo(200);
        assertThat(fake.attempts()).extracting(Attempt::scope).containsExactly("acme", "acme", "acme", "other");
      }
    }

    @Test
    void anEndpointFamilyScopeIsSharedByEveryCallerAndSeparateAcrossFamilies() {
      ManualClock clock = ManualClock.at(T0);
      try (FakeProvider fake = FakeProvider.builder().clock(clock).quota(Quota.perSecond(1, 2))
          .scopeBy(ScopeBy.family()).start()) {
        Http http = new Http(fake.baseUri());
        assertThat(http.get("/records", "Authorization", "Bearer a").statusCode()).isEqualTo(200);
        assertThat(http.get("/records", "Authorization", "Bearer b").statusCode()).isEqualTo(200);
        assertThat(http.get("/records", "Authorization", "Bearer c").statusCode()).isEqualTo(429);
        assertThat(http.get("/v1/invoices", "Authorization", "Bearer a").statusCode()).isEqualTo(200);
      }
    }

    @Test
    void aFamilyWithItsOwnQuotaHasItsOwnBucket() {
      ManualClock clock = ManualClock.at(T0);
      try (FakeProvider fake = FakeProvider.builder().clock(clock).quota(Quota.perSecond(10, 3))
          .quota("transfers", Quota.perSecond(1, 1)).start()) {
        Http http = new Http(fake.baseUri());
        assertThat(statuses(http, 2, "/v1/transfers")).containsExactly(200, 429);
        // The default bucket is untouched by the transfers family.
        assertThat(statuses(http, 4, "/records")).containsExactly(200, 200, 200, 429);
      }
    }
  }

  @Nested
  class RetryAfter {

    @Test
    void httpDateIsAnImfFixdateOnTheFakesClockRoundedUp() {
      ManualClock clock = ManualClock.at(Instant.parse("2025-03-01T12:00:00.900Z"));
      try (FakeProvider fake = FakeProvider.builder().clock(clock).quota(Quota.of(1, Duration.ofMillis(1500)))
          .retryAfterFormat(RetryAfterFormat.HTTP_DATE).start()) {
        Http http = new Http(fake.baseUri());
        http.get("/records");
        HttpResponse<String> r = http.get("/records");
        assertThat(r.statusCode()).isEqualTo(429);
        String value = r.headers().firstValue("Retry-After").orElseThrow();
        assertThat(value).matches("[A-Z][a-z]{2}, \\d{2} [A-Z][a-z]{2} \\d{4} \\d{2}:\\d{2}:\\d{2} GMT");
        Instant at = ZonedDateTime.parse(value, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant();
        // The token comes back at 12:00:02.400; the date is never earlier than that.
        assertThat(at).isEqualTo(Instant.parse("2025-03-01T12:00:03Z"));
        Instant date = ZonedDateTime.parse(r.headers().firstValue("Date").orElseThrow(), DateTimeFormatter.RFC_1123_DATE_TIME).toInstant();
        assertThat(date).isEqualTo(Instant.parse("2025-03-01T12:00:00Z"));
      }
    }

    @Test
    void formatNoneSendsNoRetryAfter() {
      ManualClock clock = ManualClock.at(T0);
      try (FakeProvider fake = FakeProvider.builder().clock(clock).quota(Quota.perSecond(1, 1))
          .retryAfterFormat(RetryAfterFormat.NONE).start()) {
        Http http = new Http(fake.baseUri());
        http.get("/records");
        HttpResponse<String> r = http.get("/records");
        assertThat(r.statusCode()).isEqualTo(429);
        assertThat(r.headers().firstValue("Retry-After")).isEmpty();
      }
    }

    @Test
    void aProviderSpecificBodyAndStatusAreAnsweredOverQuota() {
      ManualClock clock = ManualClock.at(T0);
      String body = "{\"message\":\"API rate limit exceeded\"}";
      try (FakeProvider fake = FakeProvider.builder().clock(clock).quota(Quota.perSecond(1, 1))
          .overQuota(new OverQuotaResponse(403, body)).start()) {
        Http http = new Http(fake.baseUri());
        http.get("/records");
        HttpResponse<String> r = http.get("/records");
        assertThat(r.statusCode()).isEqualTo(403);
        assertThat(r.body()).isEqualTo(body);
      }
    }
  }

  @Test
  void aSpentDailyQuotaAnswersInsufficientQuotaUntilMidnightUtc() {
    ManualClock clock = ManualClock.at(Instant.parse("2025-03-01T23:59:00Z"));
    try (FakeProvider fake = FakeProvider.builder().clock(clock).quota(Quota.perSecond(100, 100))
        .dailyQuota(DailyQuota.of(3)).start()) {
      Http http = new Http(fake.baseUri());
      assertThat(statuses(http, 3, "/records")).containsOnly(200);
      HttpResponse<String> r = http.get("/records");
      assertThat(r.statusCode()).isEqualTo(429);
      assertThat(Http.json(r).at("/error/code").asText()).isEqualTo("insufficient_quota");
      assertThat(r.headers().firstValue("Retry-After")).hasValue("60");
      clock.advance(Duration.ofSeconds(59));
      assertThat(http.get("/records").statusCode()).isEqualTo(429);
      clock.advance(Duration.ofSeconds(1));
      assertThat(statuses(http, 4, "/records")).containsExactly(200, 200, 200, 429);
    }
  }

  @Test
  void refusedRequestsDoNotSpendTheDailyQuota() {
    ManualClock clock = ManualClock.at(T0);
    try (FakeProvider fake = FakeProvider.builder().clock(clock).quota(Quota.perSecond(1, 1))
        .dailyQuota(DailyQuota.of(2)).start()) {
      Http http = new Http(fake.baseUri());
      assertThat(statuses(http, 5, "/records")).containsExactly(200, 429, 429, 429, 429);
      clock.advance(Duration.ofSeconds(1));
      assertThat(statuses(http, 1, "/records")).containsExactly(200);
      clock.advance(Duration.ofSeconds(1));
      assertThat(Http.json(http.get("/records")).at("/error/code").asText()).isEqualTo("insufficient_quota");
    }
  }

  @Nested
  class Concurrency {

    @Test
    void aScopeOverItsConcurrencyLimitGetsGithubsSecondaryLimit() throws Exception {
      try (FakeProvider fake = FakeProvider.builder().concurrency(ConcurrencyLimit.of(2))
          .fault(FaultRule.of(Fault.hold(Duration.ofSeconds(10))).path("/records").times(2)).start()) {
        Http http = new Http(fake.baseUri());
        CompletableFuture<HttpResponse<String>> a = CompletableFuture.supplyAsync(() -> http.get("/records", "Authorization", "Bearer x"));
        CompletableFuture<HttpResponse<String>> b = CompletableFuture.supplyAsync(() -> http.get("/records", "Authorization", "Bearer x"));
        assertThat(fake.awaitHeld(2, Duration.ofSeconds(5))).isTrue();

        HttpResponse<String> third = http.get("/v1/invoices", "Authorization", "Bearer x");
        assertThat(third.statusCode()).isEqualTo(403);
        assertThat(third.headers().firstValue("Retry-After")).hasValue("60");
        assertThat(Http.json(third).get("message").asText()).contains("secondary rate limit");
        // Another scope is not affected.
        assertThat(http.get("/v1/invoices", "Authorization", "Bearer y").statusCode()).isEqualTo(200);

        fake.releaseHeld();
        assertThat(a.get(5, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
        assertThat(b.get(5, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
        assertThat(http.get("/v1/invoices", "Authorization", "Bearer x").statusCode()).isEqualTo(200);
      }
    }

    @Test
    void theConcurrencyRefusalCanBeA429() throws Exception {
      try (FakeProvider fake = FakeProvider.builder().concurrency(ConcurrencyLimit.of(1).withStatus(429))
          .fault(FaultRule.of(Fault.hold(Duration.ofSeconds(10)))).start()) {
        Http http = new Http(fake.baseUri());
        CompletableFuture<HttpResponse<String>> a = CompletableFuture.supplyAsync(() -> http.get("/records"));
        assertThat(fake.awaitHeld(1, Duration.ofSeconds(5))).isTrue();
        assertThat(http.get("/records").statusCode()).isEqualTo(429);
        fake.releaseHeld();
        assertThat(a.get(5, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
      }
    }
  }
}
