package dev.sluice.core.scope;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.core.classify.AttemptResult;
import dev.sluice.core.classify.Classification;
import dev.sluice.core.classify.Classifier;
import dev.sluice.core.headers.RateLimitReader;
import dev.sluice.core.headers.RateLimitReading;
import dev.sluice.core.headers.RetryAfterPolicy;
import dev.sluice.core.headers.ServerDelayReading;
import dev.sluice.core.http.Headers;
import dev.sluice.core.retry.ServerDelay;
import java.time.Instant;
import java.util.ArrayList;
import org.junit.jupiter.api.Test;

/** A 429 holds the scope; later rate-limit headers shape pacing but never clear the hold. */
class InMemoryScopeRegistryTest {
  private static final ScopeId ID = new ScopeId("billing-api", "account:ops-team");
  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

  private final InMemoryScopeRegistry registry = new InMemoryScopeRegistry();

  private ScopeRecord observe(int status, Instant at, String... headers) {
    AttemptResult.Response r = new AttemptResult.Response(status, Headers.of(headers));
    Classification c = Classifier.standard().classify(r);
    RateLimitReading rl = RateLimitReader.standard().read(r.headers(), at);
    var sd = ServerDelay.from(ServerDelayReading.read(r.headers(), at, RetryAfterPolicy.defaults()), rl, c.verdict(), at, RetryAfterPolicy.defaults(),
        new ArrayList<>());
    return registry.observe(ID, new ResponseObservation("read", c, sd, rl, at));
  }

  @Test
  void a429SetsNextAllowedAtRemainingZeroAndItsSource() {
    ScopeRecord r = observe(429, T0, "Retry-After", "10");
    assertThat(r.nextAllowedAt()).contains(T0.plusSeconds(10));
    assertThat(r.remaining()).hasValue(0);
    assertThat(r.resetAfterSeconds()).hasValue(10);
    assertThat(r.source()).isEqualTo("HTTP 429 Retry-After");
    assertThat(registry.snapshot()).containsExactly(r);
  }

  @Test
  void rateLimitHeadersOnALaterSuccessNeverClearThe429() {
    observe(429, T0, "Retry-After", "10");
    ScopeRecord r = observe(200, T0.plusSeconds(1), "RateLimit-Policy", "\"d\";q=100;w=60", "RateLimit", "\"d\";r=99;t=1");
    assertThat(r.nextAllowedAt()).contains(T0.plusSeconds(10));
    assertThat(r.source()).isEqualTo("HTTP 429 Retry-After");
    assertThat(registry.learnedQuota(ID)).hasValueSatisfying(q -> {
      assertThat(q.limit()).hasValue(100);
      assertThat(q.remaining()).hasValue(99);
    });
  }

  @Test
  void aShorterSecond429DoesNotShortenTheHold() {
    observe(429, T0, "Retry-After", "30");
    ScopeRecord r = observe(429, T0.plusSeconds(1), "Retry-After", "2");
    assertThat(r.nextAllowedAt()).contains(T0.plusSeconds(30));
  }

  @Test
  void a429WithoutADelayHoldsForTheMinimum() {
    ScopeRecord r = observe(429, T0);
    assertThat(r.nextAllowedAt()).contains(T0.plusSeconds(1));
  }

  @Test
  void anExhaustedPoolOnASuccessHoldsUntilItsReset() {
    ScopeRecord r = observe(200, T0, "RateLimit", "\"d\";r=0;t=7");
    assertThat(r.nextAllowedAt()).contains(T0.plusSeconds(7));
    assertThat(r.remaining()).hasValue(0);
  }

  @Test
  void registeringAScopeListsItWithNoHold() {
    registry.register(ID, "none");
    assertThat(registry.snapshot()).singleElement().satisfies(r -> assertThat(r.nextAllowedAt()).isEmpty());
  }
}
