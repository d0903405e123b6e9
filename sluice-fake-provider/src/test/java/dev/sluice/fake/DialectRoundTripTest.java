package dev.sluice.fake;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.core.classify.AttemptResult;
import dev.sluice.core.classify.Classifier;
import dev.sluice.core.classify.Verdict;
import dev.sluice.core.headers.HeaderNote;
import dev.sluice.core.headers.RateLimitDialect;
import dev.sluice.core.headers.RateLimitObservation;
import dev.sluice.core.headers.RateLimitReader;
import dev.sluice.core.headers.RateLimitReading;
import dev.sluice.core.headers.RetryAfterPolicy;
import dev.sluice.core.headers.ServerDelayReading;
import dev.sluice.core.http.Headers;
import dev.sluice.core.retry.ServerDelay;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Every dialect the fake writes, read back by Sluice's own readers (the engine's code path), over
 * real HTTP. The two sides were written independently; agreement here is the round trip the
 * fake-provider issue asks for. Setup as in {@link DialectHeadersTest}: 60 requests per 60 s,
 * burst 60, three requests made, so 57 remain and the bucket is full again 3 s later.
 */
class DialectRoundTripTest {

  @ParameterizedTest(name = "{0}")
  @CsvSource({"IETF, IETF", "LEGACY, LEGACY", "OPENAI, OPENAI", "ANTHROPIC, ANTHROPIC", "GITHUB, GITHUB"})
  void afterThreeRequestsSluiceReadsWhatTheBucketHolds(Dialect written, RateLimitDialect read) {
    Headers headers = Headers.of(DialectHeadersTest.afterThree(written).map());

    RateLimitReading auto = RateLimitReader.standard().read(headers, DialectHeadersTest.T0);
    RateLimitReading pinned = RateLimitReader.standard().read(headers, DialectHeadersTest.T0, read);

    assertThat(auto.notes()).as("no header of the fake is malformed to Sluice").isEmpty();
    assertThat(auto.observations()).as("auto-detection finds exactly this dialect")
        .allSatisfy(o -> assertThat(o.dialect()).isEqualTo(read));
    assertThat(pinned.observations()).isEqualTo(auto.observations());
    RateLimitObservation requests = auto.mostConstrained(RateLimitObservation.Unit.REQUESTS).orElseThrow();
    assertThat(requests.remaining()).hasValue(57);
    if (requests.limit().isPresent()) {
      assertThat(requests.limit()).hasValue(60);
    }
    // The bucket refills one token a second: full again 3 s after T0. Dialects with whole-second
    // resets (epoch seconds, delta seconds) may round up by less than a second.
    assertThat(requests.resetAt()).hasValueSatisfying(reset -> assertThat(reset)
        .isBetween(DialectHeadersTest.T0.plusSeconds(3), DialectHeadersTest.T0.plusSeconds(4)));
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource({"IETF", "LEGACY", "OPENAI", "ANTHROPIC", "GITHUB", "NONE"})
  void aRefusalIsARateLimitWhoseDelaySluiceHonours(Dialect written) {
    HttpResponse<String> refused = DialectHeadersTest.refused(written);
    Headers headers = Headers.of(refused.headers().map());
    RetryAfterPolicy policy = RetryAfterPolicy.defaults();
    List<HeaderNote> notes = new ArrayList<>();

    Verdict verdict = Classifier.standard().classify(new AttemptResult.Response(refused.statusCode(), headers, refused.body())).verdict();
    RateLimitReading rl = RateLimitReader.standard().read(headers, DialectHeadersTest.T0);
    ServerDelay delay = ServerDelay.from(ServerDelayReading.read(headers, DialectHeadersTest.T0, policy), rl, verdict,
        DialectHeadersTest.T0, policy, notes).orElseThrow();

    assertThat(verdict).isEqualTo(Verdict.RATE_LIMITED);
    assertThat(notes).isEmpty();
    // 2 requests per 10 s, both spent at T0: the next token comes 5 s later (whole seconds, rounded up).
    assertThat(delay.delay()).isBetween(Duration.ofSeconds(5), Duration.ofSeconds(6));
  }
}
