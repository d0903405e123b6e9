package dev.sluice.core.headers;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.core.http.Headers;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class LegacyRateLimitReaderTest {
  static final Instant NOW = Instant.parse("2026-10-21T07:27:00Z");
  final LegacyRateLimitReader reader = new LegacyRateLimitReader();
  final List<HeaderNote> notes = new ArrayList<>();

  List<RateLimitObservation> read(String... namesAndValues) {
    return reader.read(Headers.of(namesAndValues), NOW, notes);
  }

  @Test
  void readsLimitRemainingAndDeltaSecondsReset() {
    List<RateLimitObservation> obs = read("RateLimit-Limit", "100", "RateLimit-Remaining", "37", "RateLimit-Reset", "20");

    assertThat(obs).singleElement().satisfies(o -> {
      assertThat(o.dialect()).isEqualTo(RateLimitDialect.LEGACY);
      assertThat(o.unit()).isEqualTo(RateLimitObservation.Unit.REQUESTS);
      assertThat(o.partition()).isEmpty();
      assertThat(o.limit()).hasValue(100);
      assertThat(o.remaining()).hasValue(37);
      assertThat(o.resetAt()).contains(NOW.plusSeconds(20));
      assertThat(o.window()).isEmpty();
      assertThat(o.sourceHeader()).isEqualTo("RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset");
    });
    assertThat(notes).isEmpty();
  }

  @Test
  void fieldNamesAreCaseInsensitive() {
    assertThat(read("ratelimit-remaining", "3")).singleElement()
        .satisfies(o -> assertThat(o.remaining()).hasValue(3));
    assertThat(reader.present(Headers.of("RATELIMIT-RESET", "1"))).isTrue();
  }

  @Test
  void theWindowComesFromTheQuotaPolicyOfTheSameLimit() {
    assertThat(read("RateLimit-Limit", "10, 10;w=1, 50;w=60")).singleElement().satisfies(o -> {
      assertThat(o.limit()).hasValue(10);
      assertThat(o.window()).contains(Duration.ofSeconds(1));
    });
  }

  @Test
  void theWindowMayBeOnTheFirstElementItself() {
    assertThat(read("RateLimit-Limit", "100;w=60")).singleElement()
        .satisfies(o -> assertThat(o.window()).contains(Duration.ofSeconds(60)));
  }

  @Test
  void aWindowOfAnotherQuotaIsNotThisLimitsWindow() {
    assertThat(read("RateLimit-Limit", "10, 50;w=60")).singleElement()
        .satisfies(o -> assertThat(o.window()).isEmpty());
    assertThat(notes).isEmpty();
  }

  @Test
  void limitLinesAreCombinedBecauseTheFieldIsAList() {
    assertThat(read("RateLimit-Limit", "10", "RateLimit-Limit", "10;w=1")).singleElement()
        .satisfies(o -> assertThat(o.window()).contains(Duration.ofSeconds(1)));
  }

  @Test
  void aMalformedWindowIsNotedAndTheLimitKept() {
    assertThat(read("RateLimit-Limit", "10, 10;w=abc")).singleElement().satisfies(o -> {
      assertThat(o.limit()).hasValue(10);
      assertThat(o.window()).isEmpty();
    });
    assertThat(notes).singleElement().satisfies(n -> {
      assertThat(n.flag()).isEqualTo(HeaderFlag.MALFORMED_HEADER_IGNORED);
      assertThat(n.header()).isEqualTo("RateLimit-Limit");
      assertThat(n.detail()).contains("w=abc");
    });
  }

  @Test
  void aNegativeRemainingIsIgnoredAndNotedWhileTheRestIsRead() {
    assertThat(read("RateLimit-Limit", "100", "RateLimit-Remaining", "-1")).singleElement().satisfies(o -> {
      assertThat(o.limit()).hasValue(100);
      assertThat(o.remaining()).isEmpty();
      assertThat(o.sourceHeader()).isEqualTo("RateLimit-Limit");
    });
    assertThat(notes).singleElement().satisfies(n -> {
      assertThat(n.flag()).isEqualTo(HeaderFlag.MALFORMED_HEADER_IGNORED);
      assertThat(n.header()).isEqualTo("RateLimit-Remaining");
      assertThat(n.detail()).contains("negative");
    });
  }

  @Test
  void theResetIsDeltaSecondsEvenWhenItLooksLikeAnEpoch() {
    assertThat(read("RateLimit-Reset", "1792567680")).singleElement()
        .satisfies(o -> assertThat(o.resetAt()).contains(NOW.plusSeconds(1792567680L)));
  }

  @Test
  void aResetBeyondAnyRepresentableInstantIsIgnoredAndNoted() {
    assertThat(read("RateLimit-Reset", "9223372036854775807")).isEmpty();
    assertThat(notes).singleElement().satisfies(n -> assertThat(n.detail()).contains("out of range"));
  }

  @Test
  void whenNothingCanBeReadThereIsNoObservationButEveryFieldIsNoted() {
    assertThat(read("RateLimit-Limit", "lots", "RateLimit-Remaining", "1.5", "RateLimit-Reset", "soon")).isEmpty();
    assertThat(notes).extracting(HeaderNote::header)
        .containsExactly("RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset");
  }

  @Test
  void differingRepeatsOfASingletonFieldAreIgnoredButIdenticalOnesAreRead() {
    assertThat(read("RateLimit-Remaining", "5", "RateLimit-Remaining", "6")).isEmpty();
    assertThat(notes).singleElement().satisfies(n -> assertThat(n.detail()).contains("2 different values"));
    notes.clear();
    assertThat(read("RateLimit-Remaining", "5", "RateLimit-Remaining", " 5")).singleElement()
        .satisfies(o -> assertThat(o.remaining()).hasValue(5));
    assertThat(notes).isEmpty();
  }

  @Test
  void isNotPresentForIetfOrProviderFields() {
    assertThat(reader.present(Headers.of("RateLimit", "\"default\";r=0;t=30", "RateLimit-Policy", "\"default\";q=100;w=60"))).isFalse();
    assertThat(reader.present(Headers.of("x-ratelimit-limit", "5000"))).isFalse();
    assertThat(read("RateLimit", "\"default\";r=0;t=30")).isEmpty();
  }
}
