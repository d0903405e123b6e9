package dev.sluice.core.classify;

import dev.sluice.core.policy.QuotaExhaustedMatcher;
import dev.sluice.core.policy.QuotaReset;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.core.http.Headers;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.Test;

class ClassifierTest {
  private final Classifier classifier = Classifier.standard();

  private Verdict verdictOf(int status, String... headers) {
    return classifier.classify(new AttemptResult.Response(status, Headers.of(headers))).verdict();
  }

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource({
    "200, SUCCESS", "201, SUCCESS", "204, SUCCESS", "304, SUCCESS",
    "301, REDIRECT_REFUSED", "302, REDIRECT_REFUSED", "307, REDIRECT_REFUSED", "308, REDIRECT_REFUSED",
    "429, RATE_LIMITED",
    "400, CLIENT_ERROR", "401, CLIENT_ERROR", "403, CLIENT_ERROR", "404, CLIENT_ERROR", "422, CLIENT_ERROR", "410, CLIENT_ERROR",
    "409, CONFLICT",
    "408, UNAVAILABLE", "500, UNAVAILABLE", "502, UNAVAILABLE", "503, UNAVAILABLE", "504, UNAVAILABLE",
  })
  void statusTable(int status, Verdict expected) {
    assertThat(verdictOf(status)).isEqualTo(expected);
  }

  @Test
  void rateLimitedAndUnavailableStayDistinctEvenWithTheSameRetryAfter() {
    assertThat(verdictOf(429, "Retry-After", "10")).isEqualTo(Verdict.RATE_LIMITED);
    assertThat(verdictOf(503, "Retry-After", "10")).isEqualTo(Verdict.UNAVAILABLE);
  }

  @Test
  void gitHubStyle403WithRemainingAtZeroIsARateLimit() {
    Classification c = classifier.classify(new AttemptResult.Response(403,
        Headers.of("x-ratelimit-remaining", "0", "x-ratelimit-reset", "1700000000")));
    assertThat(c.verdict()).isEqualTo(Verdict.RATE_LIMITED);
    assertThat(c.reason()).contains("x-ratelimit-remaining").contains("GitHub");
  }

  @Test
  void a403WithAnyDialectsRequestPoolAtZeroIsARateLimit() {
    assertThat(verdictOf(403, "RateLimit", "\"default\";r=0;t=30")).isEqualTo(Verdict.RATE_LIMITED);
    assertThat(verdictOf(403, "anthropic-ratelimit-requests-remaining", "0",
        "anthropic-ratelimit-requests-reset", "2026-10-21T07:28:00Z")).isEqualTo(Verdict.RATE_LIMITED);
    assertThat(verdictOf(403, "x-ratelimit-remaining-requests", "0")).isEqualTo(Verdict.RATE_LIMITED);
    // a token pool at zero is not a request-rate refusal
    assertThat(verdictOf(403, "x-ratelimit-remaining-tokens", "0")).isEqualTo(Verdict.CLIENT_ERROR);
  }

  @Test
  void gitHubSecondaryLimit403WithRetryAfterIsARateLimit() {
    assertThat(verdictOf(403, "Retry-After", "60")).isEqualTo(Verdict.RATE_LIMITED);
  }

  @Test
  void a403WithQuotaLeftIsAClientError() {
    assertThat(verdictOf(403, "x-ratelimit-remaining", "4999")).isEqualTo(Verdict.CLIENT_ERROR);
  }

  @Test
  void configuredQuotaRuleTurnsA429IntoQuotaExhaustion() {
    QuotaExhaustedMatcher rule = QuotaExhaustedMatcher.of(429, "/error/code", "insufficient_quota", QuotaReset.BILLING);
    Classifier withRule = new Classifier(List.of(rule));

    Classification c = withRule.classify(new AttemptResult.Response(429, Headers.empty(),
        "{\"error\":{\"code\":\"insufficient_quota\",\"message\":\"You exceeded your current quota\"}}"));

    assertThat(c.verdict()).isEqualTo(Verdict.QUOTA_EXHAUSTED);
    assertThat(c.quotaRule()).contains(rule);
    assertThat(c.reason()).contains("billing");
  }

  @Test
  void quotaRuleDoesNotMatchAnotherCodeOrStatusOrAGarbageBody() {
    Classifier withRule = new Classifier(List.of(QuotaExhaustedMatcher.of(429, "/error/code", "insufficient_quota", QuotaReset.DAILY)));
    assertThat(withRule.classify(new AttemptResult.Response(429, Headers.empty(), "{\"error\":{\"code\":\"rate_limit_exceeded\"}}")).verdict())
        .isEqualTo(Verdict.RATE_LIMITED);
    assertThat(withRule.classify(new AttemptResult.Response(400, Headers.empty(), "{\"error\":{\"code\":\"insufficient_quota\"}}")).verdict())
        .isEqualTo(Verdict.CLIENT_ERROR);
    assertThat(withRule.classify(new AttemptResult.Response(429, Headers.empty(), "<html>not json")).verdict())
        .isEqualTo(Verdict.RATE_LIMITED);
    assertThat(withRule.classify(new AttemptResult.Response(429, Headers.empty(), "{\"error\":{\"code\":{\"nested\":1}}}")).verdict())
        .isEqualTo(Verdict.RATE_LIMITED);
  }

  @ParameterizedTest
  @EnumSource(TransportFailure.class)
  void transportFailuresSplitOnWhetherBytesLeft(TransportFailure kind) {
    Classification c = classifier.classify(new AttemptResult.Failure(kind));
    if (kind.afterSend()) {
      assertThat(c.verdict()).isEqualTo(Verdict.OUTCOME_UNKNOWN);
      assertThat(c.verdict().requestSent()).isTrue();
    } else {
      assertThat(c.verdict()).isIn(Verdict.TIMEOUT_BEFORE_SEND, Verdict.RESET_BEFORE_SEND);
      assertThat(c.verdict().requestSent()).isFalse();
    }
    assertThat(c.status()).isEmpty();
    assertThat(c.verdict().responseReceived()).isFalse();
  }
}
