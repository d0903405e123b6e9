package dev.sluice.core.headers;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.core.http.Headers;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class GitHubRateLimitReaderTest {
  static final Instant NOW = Instant.parse("2026-10-21T07:27:00Z");
  final GitHubRateLimitReader reader = new GitHubRateLimitReader();
  final List<HeaderNote> notes = new ArrayList<>();

  List<RateLimitObservation> read(String... namesAndValues) {
    return reader.read(Headers.of(namesAndValues), NOW, notes);
  }

  @Test
  void readsTheResourceAsPartitionAndTheResetAsEpochSeconds() {
    List<RateLimitObservation> obs = read(
        "x-ratelimit-limit", "5000",
        "x-ratelimit-remaining", "4987",
        "x-ratelimit-used", "13",
        "x-ratelimit-reset", "1792567680",
        "x-ratelimit-resource", "core");

    assertThat(obs).singleElement().satisfies(o -> {
      assertThat(o.dialect()).isEqualTo(RateLimitDialect.GITHUB);
      assertThat(o.unit()).isEqualTo(RateLimitObservation.Unit.REQUESTS);
      assertThat(o.partition()).contains("core");
      assertThat(o.limit()).hasValue(5000);
      assertThat(o.remaining()).hasValue(4987);
      assertThat(o.resetAt()).contains(Instant.ofEpochSecond(1792567680L));
      assertThat(o.window()).isEmpty();
      assertThat(o.sourceHeader()).isEqualTo(
          "x-ratelimit-limit, x-ratelimit-remaining, x-ratelimit-used, x-ratelimit-reset, x-ratelimit-resource");
    });
    assertThat(notes).isEmpty();
  }

  @Test
  void remainingIsDerivedFromLimitMinusUsedWhenNotSent() {
    assertThat(read("x-ratelimit-limit", "60", "x-ratelimit-used", "60")).singleElement()
        .satisfies(o -> assertThat(o.remaining()).hasValue(0));
  }

  @Test
  void whenRemainingAndUsedDisagreeTheSmallerRemainderIsKeptAndFlagged() {
    assertThat(read("x-ratelimit-limit", "100", "x-ratelimit-remaining", "50", "x-ratelimit-used", "70")).singleElement()
        .satisfies(o -> assertThat(o.remaining()).hasValue(30));
    assertThat(notes).singleElement().satisfies(n -> {
      assertThat(n.flag()).isEqualTo(HeaderFlag.CONFLICTING_HEADERS);
      assertThat(n.header()).isEqualTo("x-ratelimit-remaining");
    });
  }

  @Test
  void usedBeyondTheLimitMeansNothingRemainsNotANegativeRemainder() {
    assertThat(read("x-ratelimit-limit", "10", "x-ratelimit-used", "12")).singleElement()
        .satisfies(o -> assertThat(o.remaining()).hasValue(0));
  }

  @Test
  void aMalformedResourceIsNotedAndTheObservationKeptInTheDefaultPool() {
    assertThat(read("x-ratelimit-remaining", "3", "x-ratelimit-resource", "core search")).singleElement()
        .satisfies(o -> assertThat(o.partition()).isEmpty());
    assertThat(notes).singleElement().satisfies(n -> {
      assertThat(n.flag()).isEqualTo(HeaderFlag.MALFORMED_HEADER_IGNORED);
      assertThat(n.header()).isEqualTo("x-ratelimit-resource");
    });
  }

  @Test
  void aResourceAloneIsNoObservation() {
    assertThat(read("x-ratelimit-resource", "search")).isEmpty();
  }

  @Test
  void negativeAndOutOfRangeResetsAreNoted() {
    assertThat(read("x-ratelimit-reset", "-1")).isEmpty();
    assertThat(read("x-ratelimit-reset", "99999999999999999")).isEmpty();
    assertThat(notes).extracting(HeaderNote::detail)
        .anySatisfy(d -> assertThat(d).contains("negative"))
        .anySatisfy(d -> assertThat(d).contains("out of range"));
  }

  @Test
  void openAisSuffixedNamesAreNotGitHubs() {
    Headers openAi = Headers.of("x-ratelimit-limit-requests", "5000", "x-ratelimit-remaining-requests", "4999",
        "x-ratelimit-reset-requests", "12ms", "x-ratelimit-reset-tokens", "6m0s");
    assertThat(reader.present(openAi)).isFalse();
    assertThat(reader.read(openAi, NOW, notes)).isEmpty();
    assertThat(notes).isEmpty();
    assertThat(reader.present(Headers.of("X-RateLimit-Used", "1"))).isTrue();
  }
}
