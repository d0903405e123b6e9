package dev.sluice.core.headers;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.core.http.Headers;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class OpenAiRateLimitReaderTest {
  static final Instant NOW = Instant.parse("2026-10-21T07:27:00Z");
  final OpenAiRateLimitReader reader = new OpenAiRateLimitReader();
  final List<HeaderNote> notes = new ArrayList<>();

  List<RateLimitObservation> read(String... namesAndValues) {
    return reader.read(Headers.of(namesAndValues), NOW, notes);
  }

  @Test
  void readsOneObservationPerUnit() {
    List<RateLimitObservation> obs = read(
        "x-ratelimit-limit-requests", "5000",
        "x-ratelimit-remaining-requests", "4999",
        "x-ratelimit-reset-requests", "12ms",
        "x-ratelimit-limit-tokens", "160000",
        "x-ratelimit-remaining-tokens", "159980",
        "x-ratelimit-reset-tokens", "6m0s");

    assertThat(obs).hasSize(2);
    assertThat(obs.get(0)).satisfies(o -> {
      assertThat(o.dialect()).isEqualTo(RateLimitDialect.OPENAI);
      assertThat(o.unit()).isEqualTo(RateLimitObservation.Unit.REQUESTS);
      assertThat(o.partition()).isEmpty();
      assertThat(o.limit()).hasValue(5000);
      assertThat(o.remaining()).hasValue(4999);
      assertThat(o.resetAt()).contains(NOW.plusMillis(12));
      assertThat(o.window()).isEmpty();
      assertThat(o.sourceHeader()).isEqualTo("x-ratelimit-limit-requests, x-ratelimit-remaining-requests, x-ratelimit-reset-requests");
    });
    assertThat(obs.get(1)).satisfies(o -> {
      assertThat(o.unit()).isEqualTo(RateLimitObservation.Unit.TOKENS);
      assertThat(o.partition()).contains("tokens");
      assertThat(o.limit()).hasValue(160000);
      assertThat(o.remaining()).hasValue(159980);
      assertThat(o.resetAt()).contains(NOW.plus(Duration.ofMinutes(6)));
    });
    assertThat(notes).isEmpty();
  }

  @Test
  void compoundAndFractionalDurationsAreResetsFromNow() {
    assertThat(read("x-ratelimit-reset-requests", "1h2m3.5s")).singleElement()
        .satisfies(o -> assertThat(o.resetAt()).contains(NOW.plus(Duration.parse("PT1H2M3.5S"))));
  }

  @Test
  void onlyTheUnitsPresentGiveObservations() {
    assertThat(read("x-ratelimit-remaining-tokens", "0")).singleElement().satisfies(o -> {
      assertThat(o.unit()).isEqualTo(RateLimitObservation.Unit.TOKENS);
      assertThat(o.remaining()).hasValue(0);
      assertThat(o.limit()).isEmpty();
      assertThat(o.resetAt()).isEmpty();
    });
  }

  @Test
  void aMalformedDurationIsNotedWithTheFieldAndTheOtherValuesKept() {
    List<RateLimitObservation> obs = read("x-ratelimit-remaining-requests", "10", "x-ratelimit-reset-requests", "1d");
    assertThat(obs).singleElement().satisfies(o -> {
      assertThat(o.remaining()).hasValue(10);
      assertThat(o.resetAt()).isEmpty();
    });
    assertThat(notes).singleElement().satisfies(n -> {
      assertThat(n.flag()).isEqualTo(HeaderFlag.MALFORMED_HEADER_IGNORED);
      assertThat(n.header()).isEqualTo("x-ratelimit-reset-requests");
      assertThat(n.detail()).contains("unknown duration unit 'd'");
    });
  }

  @Test
  void negativeAndOverflowingNumbersAreNoted() {
    assertThat(read("x-ratelimit-remaining-requests", "-3", "x-ratelimit-limit-tokens", "99999999999999999999")).isEmpty();
    assertThat(notes).extracting(HeaderNote::detail)
        .anySatisfy(d -> assertThat(d).contains("negative"))
        .anySatisfy(d -> assertThat(d).contains("out of range"));
  }

  @Test
  void aDurationThatWouldOverflowTheInstantIsNoted() {
    Instant nearTheEnd = Instant.MAX.minusSeconds(10);
    assertThat(reader.read(Headers.of("x-ratelimit-reset-requests", "1h"), nearTheEnd, notes)).isEmpty();
    assertThat(notes).singleElement().satisfies(n -> assertThat(n.detail()).contains("out of range"));
  }

  @Test
  void githubsBareNamesAreNotOpenAis() {
    Headers github = Headers.of("x-ratelimit-limit", "5000", "x-ratelimit-remaining", "4999", "x-ratelimit-reset", "1792567680");
    assertThat(reader.present(github)).isFalse();
    assertThat(reader.read(github, NOW, notes)).isEmpty();
    assertThat(reader.present(Headers.of("X-RateLimit-Reset-Tokens", "1s"))).isTrue();
  }

  @Test
  void tokensPartitionNamesTheUnit() {
    assertThat(read("x-ratelimit-limit-tokens", "1")).singleElement()
        .satisfies(o -> assertThat(o.partition()).isEqualTo(Optional.of("tokens")));
  }
}
