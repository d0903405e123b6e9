package dev.sluice.core.scope;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.core.classify.AttemptResult;
import dev.sluice.core.classify.Classification;
import dev.sluice.core.classify.Classifier;
import dev.sluice.core.policy.QuotaExhaustedMatcher;
import dev.sluice.core.policy.QuotaReset;
import dev.sluice.core.headers.HeaderFlag;
import dev.sluice.core.headers.HeaderNote;
import dev.sluice.core.headers.RateLimitReader;
import dev.sluice.core.headers.RateLimitReading;
import dev.sluice.core.headers.RetryAfterPolicy;
import dev.sluice.core.headers.ServerDelayReading;
import dev.sluice.core.http.Headers;
import dev.sluice.core.retry.DelaySource;
import dev.sluice.core.retry.ServerDelay;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/** From a response's headers to the scope record, the way the engine and `sluice explain` do it. */
class ScopeUpdateTest {
  static final Instant NOW = Instant.parse("2025-04-08T14:12:01Z");
  static final RetryAfterPolicy POLICY = RetryAfterPolicy.defaults();
  static final ScopeRecord EMPTY = new ScopeRecord("billing-api", "account:ops-team", "read", Optional.empty(),
      OptionalLong.empty(), OptionalLong.empty(), "none");

  private final List<HeaderNote> notes = new ArrayList<>();

  private Optional<ScopeUpdate> updateFor(Classifier classifier, int status, String body, String... headers) {
    Headers h = Headers.of(headers);
    Classification c = classifier.classify(new AttemptResult.Response(status, h, body));
    RateLimitReading rl = RateLimitReader.standard().read(h, NOW);
    Optional<ServerDelay> delay = ServerDelay.from(ServerDelayReading.read(h, NOW, POLICY), rl, c.verdict(), NOW, POLICY, notes);
    return ScopeUpdate.after(c, delay, rl, NOW, POLICY);
  }

  private Optional<ScopeUpdate> updateFor(int status, String... headers) {
    return updateFor(Classifier.standard(), status, "", headers);
  }

  @Test
  void the429WithRetryAfterGivesTheSeedsRecord() {
    ScopeRecord r = updateFor(429, "Retry-After", "30").orElseThrow().applyTo(EMPTY, "write:invoice");

    assertThat(r.nextAllowedAt()).contains(Instant.parse("2025-04-08T14:12:31Z"));
    assertThat(r.remaining()).hasValue(0);
    assertThat(r.resetAfterSeconds()).hasValue(30);
    assertThat(r.source()).isEqualTo("HTTP 429 Retry-After");
    assertThat(r.requestClass()).isEqualTo("write:invoice");
  }

  @Test
  void a429WithoutRetryAfterWaitsForTheExhaustedPoolsReset() {
    ScopeUpdate u = updateFor(429, "RateLimit-Policy", "\"default\";q=100;w=60", "RateLimit", "\"default\";r=0;t=42").orElseThrow();

    assertThat(u.holdUntil()).contains(NOW.plusSeconds(42));
    assertThat(u.resetAfterSeconds()).hasValue(42);
    assertThat(u.source()).startsWith("HTTP 429 RateLimit");
  }

  @Test
  void a429WithNothingHoldsTheScopeForTheMinimumDelay() {
    ScopeUpdate u = updateFor(429).orElseThrow();
    assertThat(u.holdUntil()).contains(NOW.plusSeconds(1));
    assertThat(u.source()).contains("no delay given");
  }

  @Test
  void aPastRateLimitResetOnA429IsFlaggedAsClockSkewAndWaitsTheMinimum() {
    ScopeUpdate u = updateFor(403, "x-ratelimit-limit", "5000", "x-ratelimit-remaining", "0", "x-ratelimit-used", "5000",
        "x-ratelimit-reset", String.valueOf(NOW.minusSeconds(5).getEpochSecond())).orElseThrow();
    assertThat(u.holdUntil()).contains(NOW.plusSeconds(1));
    assertThat(notes).extracting(HeaderNote::flag).contains(HeaderFlag.CLOCK_SKEW);
  }

  @Test
  void rateLimitFieldsOnSuccessUpdateRemainingButHoldNothing() {
    ScopeUpdate u = updateFor(200, "x-ratelimit-limit-requests", "60", "x-ratelimit-remaining-requests", "12",
        "x-ratelimit-reset-requests", "6m0s").orElseThrow();
    assertThat(u.holdUntil()).isEmpty();
    assertThat(u.remaining()).hasValue(12);
    assertThat(u.resetAfterSeconds()).hasValue(360);
  }

  @Test
  void rateLimitFieldsNeverClearA429AlreadyReceived() {
    ScopeRecord held = updateFor(429, "Retry-After", "30").orElseThrow().applyTo(EMPTY, "read");
    ScopeRecord after = updateFor(200, "RateLimit-Policy", "\"default\";q=100;w=60", "RateLimit", "\"default\";r=99;t=1")
        .orElseThrow().applyTo(held, "read");

    assertThat(after.nextAllowedAt()).isEqualTo(held.nextAllowedAt());
    assertThat(after.remaining()).hasValue(99);
    assertThat(after.source()).isEqualTo("HTTP 429 Retry-After");
  }

  @Test
  void anExhaustedPoolOnSuccessHoldsUntilItsReset() {
    ScopeUpdate u = updateFor(200, "RateLimit-Policy", "\"default\";q=100;w=60", "RateLimit", "\"default\";r=0;t=42").orElseThrow();
    assertThat(u.holdUntil()).contains(NOW.plusSeconds(42));
  }

  @Test
  void anExhaustedPoolWhoseResetIsWithinTheHeadersOneSecondResolutionHoldsNothing() {
    // A token bucket of 50/s, burst 10, says r=0;t=1 when its burst is spent: the next unit is
    // 20 ms away. The scope is not held; the pacer spaces the next send (Pacer.HEADER_RESOLUTION).
    ScopeUpdate u = updateFor(200, "RateLimit-Policy", "\"default\";q=50;w=1", "RateLimit", "\"default\";r=0;t=1").orElseThrow();
    assertThat(u.holdUntil()).isEmpty();
    assertThat(u.remaining()).hasValue(0);
    ScopeUpdate twoSeconds = updateFor(200, "RateLimit", "\"default\";r=0;t=2").orElseThrow();
    assertThat(twoSeconds.holdUntil()).contains(NOW.plusSeconds(2));
    ScopeUpdate refused = updateFor(429, "Retry-After", "1", "RateLimit", "\"default\";r=0;t=1").orElseThrow();
    assertThat(refused.holdUntil()).as("a 429's Retry-After always holds").contains(NOW.plusSeconds(1));
  }

  @Test
  void anAbsurdResetOnSuccessHoldsTheScopeNoLongerThanTheCap() {
    ScopeUpdate u = updateFor(200, "RateLimit", "\"default\";r=0;t=999999999999999").orElseThrow();
    assertThat(u.holdUntil()).contains(NOW.plus(POLICY.cap()));
    ScopeUpdate github = updateFor(200, "x-ratelimit-remaining", "0", "x-ratelimit-reset", "99999999999").orElseThrow();
    assertThat(github.holdUntil()).contains(NOW.plus(POLICY.cap()));
  }

  @Test
  void a503SaysNothingAboutTheScope() {
    assertThat(updateFor(503, "Retry-After", "10")).isEmpty();
  }

  @Test
  void dailyQuotaExhaustionHoldsUntilTheNextUtcMidnight() {
    Classifier c = new Classifier(List.of(QuotaExhaustedMatcher.of(429, "/error/code", "insufficient_quota", QuotaReset.DAILY)));
    ScopeUpdate u = updateFor(c, 429, "{\"error\":{\"code\":\"insufficient_quota\"}}").orElseThrow();
    assertThat(u.holdUntil()).contains(Instant.parse("2025-04-09T00:00:00Z"));
    assertThat(u.source()).contains("quota exhausted (daily reset)");
  }

  @Test
  void retryAfterMsIsAServerDelayWithItsOwnSource() {
    Headers h = Headers.of("retry-after-ms", "2500");
    Optional<ServerDelay> d = ServerDelay.from(ServerDelayReading.read(h, NOW, POLICY), RateLimitReading.empty(),
        dev.sluice.core.classify.Verdict.RATE_LIMITED, NOW, POLICY, notes);
    assertThat(d).hasValueSatisfying(s -> {
      assertThat(s.source()).isEqualTo(DelaySource.RETRY_AFTER_MS);
      assertThat(s.delay()).hasMillis(2500);
    });
  }
}
