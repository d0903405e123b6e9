package dev.sluice.fake;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpHeaders;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Each dialect's fields are present and well-formed, and say what the bucket holds. Values are
 * parsed here with small independent parsers; round trips through Sluice's own parsers live with
 * the engine.
 *
 * <p>Setup everywhere: 60 requests per 60 s (one token a second), burst 60, clock at .250 past a
 * second; after three requests 57 remain and the bucket is full again 3 s later.
 */
class DialectHeadersTest {

  static final Instant T0 = Instant.parse("2025-06-01T10:00:00.250Z");
  static final Quota QUOTA = Quota.of(60, Duration.ofSeconds(60));

  static HttpHeaders afterThree(Dialect dialect) {
    try (FakeProvider fake = FakeProvider.builder().clock(ManualClock.at(T0)).quota(QUOTA).dialect(dialect).start()) {
      Http http = new Http(fake.baseUri());
      http.get("/records");
      http.get("/records");
      return http.get("/records").headers();
    }
  }

  static HttpResponse<String> refused(Dialect dialect) {
    try (FakeProvider fake = FakeProvider.builder().clock(ManualClock.at(T0)).quota(Quota.of(2, Duration.ofSeconds(10)))
        .dialect(dialect).start()) {
      Http http = new Http(fake.baseUri());
      http.get("/records");
      http.get("/records");
      HttpResponse<String> r = http.get("/records");
      assertThat(r.statusCode()).isEqualTo(429);
      return r;
    }
  }

  static String one(HttpHeaders h, String name) {
    List<String> values = h.allValues(name);
    assertThat(values).as(name).hasSize(1);
    return values.get(0);
  }

  /** An RFC 9651 list of one item: a string value with integer parameters. */
  static Map<String, Long> sfItem(String field, String expectedName) {
    Matcher m = Pattern.compile("^\"([^\"]*)\"((?:;[a-z][a-z0-9_*-]*=-?\\d{1,15})*)$").matcher(field);
    assertThat(m.matches()).as("structured field item: " + field).isTrue();
    assertThat(m.group(1)).isEqualTo(expectedName);
    Map<String, Long> params = new HashMap<>();
    for (String p : m.group(2).substring(1).split(";")) {
      String[] kv = p.split("=");
      assertThat(params.put(kv[0], Long.parseLong(kv[1]))).as("duplicate parameter " + kv[0]).isNull();
    }
    return params;
  }

  /** Go's time.Duration notation, as OpenAI writes resets. */
  static Duration goDuration(String s) {
    Matcher m = Pattern.compile("^(?:(\\d+)h)?(?:(\\d+)m)?(?:(\\d+(?:\\.\\d+)?)s)?$").matcher(s);
    Matcher ms = Pattern.compile("^(\\d+)ms$").matcher(s);
    if (ms.matches()) {
      return Duration.ofMillis(Long.parseLong(ms.group(1)));
    }
    assertThat(m.matches() && !s.isEmpty()).as("Go duration: " + s).isTrue();
    Duration d = Duration.ZERO;
    if (m.group(1) != null) {
      d = d.plusHours(Long.parseLong(m.group(1)));
    }
    if (m.group(2) != null) {
      d = d.plusMinutes(Long.parseLong(m.group(2)));
    }
    if (m.group(3) != null) {
      d = d.plusNanos(Math.round(Double.parseDouble(m.group(3)) * 1e9));
    }
    return d;
  }

  @Test
  void ietfWritesPolicyAndStateAsStructuredFields() {
    HttpHeaders h = afterThree(Dialect.IETF);
    assertThat(sfItem(one(h, "RateLimit-Policy"), "default")).containsExactlyInAnyOrderEntriesOf(Map.of("q", 60L, "w", 60L));
    assertThat(sfItem(one(h, "RateLimit"), "default")).containsExactlyInAnyOrderEntriesOf(Map.of("r", 57L, "t", 3L));
  }

  @Test
  void ietfNamesAFamilysOwnPolicy() {
    try (FakeProvider fake = FakeProvider.builder().clock(ManualClock.at(T0)).quota("transfers", Quota.perSecond(5, 5)).start()) {
      HttpHeaders h = new Http(fake.baseUri()).get("/v1/transfers").headers();
      assertThat(sfItem(one(h, "RateLimit-Policy"), "transfers")).containsEntry("q", 5L).containsEntry("w", 1L);
      assertThat(sfItem(one(h, "RateLimit"), "transfers")).containsEntry("r", 4L).containsEntry("t", 1L);
    }
  }

  @Test
  void ietfPublishesTheSustainedRateNotTheBurst() {
    // 50 per second with a burst of 10: q/w is the rate (50 per 1 s). It used to be q=10;w=1, the
    // burst, which made a client pacing by the policy run at a fifth of the quota.
    try (FakeProvider fake = FakeProvider.builder().clock(ManualClock.at(T0)).quota(Quota.perSecond(50, 10)).start()) {
      HttpHeaders h = new Http(fake.baseUri()).get("/records").headers();
      assertThat(sfItem(one(h, "RateLimit-Policy"), "default")).containsExactlyInAnyOrderEntriesOf(Map.of("q", 50L, "w", 1L));
      // One token spent of 10: full again after 1/50 s, rounded up to a whole second.
      assertThat(sfItem(one(h, "RateLimit"), "default")).containsExactlyInAnyOrderEntriesOf(Map.of("r", 9L, "t", 1L));
    }
    assertThat(new Quota(1, Duration.ofMillis(1500), 1).windowSeconds()).isEqualTo(2);
    assertThat(new Quota(1, Duration.ofMillis(1500), 1).quotaPerWindow()).isEqualTo(1);
    assertThat(new Quota(3, Duration.ofMillis(1500), 1).quotaPerWindow()).isEqualTo(4);
  }

  @Test
  void legacyWritesThreeIntegers() {
    HttpHeaders h = afterThree(Dialect.LEGACY);
    assertThat(Long.parseLong(one(h, "RateLimit-Limit"))).isEqualTo(60);
    assertThat(Long.parseLong(one(h, "RateLimit-Remaining"))).isEqualTo(57);
    assertThat(Long.parseLong(one(h, "RateLimit-Reset"))).isEqualTo(3);
    assertThat(h.firstValue("RateLimit")).isEmpty();
  }

  @Test
  void openAiWritesRequestCountsAndGoDurations() {
    HttpHeaders h = afterThree(Dialect.OPENAI);
    assertThat(Long.parseLong(one(h, "x-ratelimit-limit-requests"))).isEqualTo(60);
    assertThat(Long.parseLong(one(h, "x-ratelimit-remaining-requests"))).isEqualTo(57);
    assertThat(one(h, "x-ratelimit-reset-requests")).isEqualTo("3s");
    assertThat(goDuration(one(h, "x-ratelimit-reset-requests"))).isEqualTo(Duration.ofSeconds(3));
    assertThat(h.firstValue("x-ratelimit-limit-tokens")).isEmpty();
  }

  @Test
  void openAiWritesMinutesTheWayOpenAiDoesAndTokensWhenConfigured() {
    try (FakeProvider fake = FakeProvider.builder().clock(ManualClock.at(T0)).dialect(Dialect.OPENAI)
        .quota(Quota.of(10, Duration.ofHours(1))).tokenQuota(Quota.of(1000, Duration.ofSeconds(60))).start()) {
      String body = "{\"text\":\"forty bytes of json body here\"}";
      assertThat(body).hasSize(40);
      HttpHeaders h = new Http(fake.baseUri()).post("/records", body).headers();
      assertThat(one(h, "x-ratelimit-reset-requests")).isEqualTo("6m0s"); // one token of 10/hour
      assertThat(Long.parseLong(one(h, "x-ratelimit-limit-tokens"))).isEqualTo(1000);
      assertThat(Long.parseLong(one(h, "x-ratelimit-remaining-tokens"))).isEqualTo(990); // 40 bytes / 4
      assertThat(goDuration(one(h, "x-ratelimit-reset-tokens"))).isEqualTo(Duration.ofMillis(600));
    }
  }

  @Test
  void openAiAddsRetryAfterMsOnARefusal() {
    HttpResponse<String> r = refused(Dialect.OPENAI);
    assertThat(Long.parseLong(one(r.headers(), "x-ratelimit-remaining-requests"))).isZero();
    assertThat(Long.parseLong(one(r.headers(), "retry-after-ms"))).isEqualTo(5000);
    assertThat(one(r.headers(), "Retry-After")).isEqualTo("5");
  }

  @Test
  void anthropicWritesRfc3339Resets() {
    HttpHeaders h = afterThree(Dialect.ANTHROPIC);
    assertThat(Long.parseLong(one(h, "anthropic-ratelimit-requests-limit"))).isEqualTo(60);
    assertThat(Long.parseLong(one(h, "anthropic-ratelimit-requests-remaining"))).isEqualTo(57);
    String reset = one(h, "anthropic-ratelimit-requests-reset");
    assertThat(reset).matches("\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}Z");
    // Full again at 10:00:03.250; written rounded up to the second.
    assertThat(Instant.parse(reset)).isEqualTo(Instant.parse("2025-06-01T10:00:04Z"));
  }

  @Test
  void githubWritesEpochSecondsUsedAndResource() {
    HttpHeaders h = afterThree(Dialect.GITHUB);
    assertThat(Long.parseLong(one(h, "x-ratelimit-limit"))).isEqualTo(60);
    assertThat(Long.parseLong(one(h, "x-ratelimit-remaining"))).isEqualTo(57);
    assertThat(Long.parseLong(one(h, "x-ratelimit-used"))).isEqualTo(3);
    assertThat(Long.parseLong(one(h, "x-ratelimit-reset"))).isEqualTo(Instant.parse("2025-06-01T10:00:04Z").getEpochSecond());
    assertThat(one(h, "x-ratelimit-resource")).isEqualTo("core");
  }

  @Test
  void noneWritesNoRateLimitFieldButKeepsRetryAfter() {
    assertThat(afterThree(Dialect.NONE).map().keySet()).noneMatch(n -> n.toLowerCase().contains("ratelimit"));
    HttpResponse<String> r = refused(Dialect.NONE);
    assertThat(r.headers().map().keySet()).noneMatch(n -> n.toLowerCase().contains("ratelimit"));
    assertThat(one(r.headers(), "Retry-After")).isEqualTo("5");
  }

  @Test
  void everyDialectShowsAnEmptyBucketOnARefusal() {
    assertThat(sfItem(one(refused(Dialect.IETF).headers(), "RateLimit"), "default")).containsEntry("r", 0L).containsEntry("t", 10L);
    assertThat(one(refused(Dialect.LEGACY).headers(), "RateLimit-Remaining")).isEqualTo("0");
    assertThat(one(refused(Dialect.ANTHROPIC).headers(), "anthropic-ratelimit-requests-remaining")).isEqualTo("0");
    HttpHeaders gh = refused(Dialect.GITHUB).headers();
    assertThat(one(gh, "x-ratelimit-remaining")).isEqualTo("0");
    assertThat(one(gh, "x-ratelimit-used")).isEqualTo("2");
  }

  @Test
  void theDateHeaderComesFromTheFakesClock() {
    HttpHeaders h = afterThree(Dialect.IETF);
    assertThat(one(h, "Date")).isEqualTo("Sun, 01 Jun 2025 10:00:00 GMT");
  }
}
