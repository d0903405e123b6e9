package dev.sluice.core.headers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.core.http.Headers;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class RateLimitReaderTest {
  static final Instant NOW = Instant.parse("2026-10-21T07:27:00Z");

  static final Headers MIXED = Headers.of(
      "RateLimit-Remaining", "7",
      "x-ratelimit-remaining-requests", "10",
      "x-ratelimit-remaining-tokens", "900",
      "x-ratelimit-remaining", "4000",
      "x-ratelimit-resource", "core");

  /** Stands in for a reader written elsewhere (the IETF one), to show readers plug in. */
  record StubReader(RateLimitDialect dialect, String field) implements RateLimitDialectReader {
    @Override
    public boolean present(Headers headers) {
      return headers.contains(field);
    }

    @Override
    public List<RateLimitObservation> read(Headers headers, Instant now, List<HeaderNote> notes) {
      notes.add(new HeaderNote(HeaderFlag.MALFORMED_HEADER_IGNORED, field, "stub note"));
      return List.of(new RateLimitObservation(dialect, RateLimitObservation.Unit.REQUESTS, Optional.of("stub"),
          OptionalLong.empty(), OptionalLong.of(1), Optional.empty(), Optional.empty(), field));
    }
  }

  @Test
  void autoReadsEveryDialectPresentInReaderOrder() {
    RateLimitReading reading = RateLimitReader.standard().read(MIXED, NOW, RateLimitDialect.AUTO);

    assertThat(reading.observations()).extracting(RateLimitObservation::dialect).containsExactly(
        RateLimitDialect.LEGACY, RateLimitDialect.OPENAI, RateLimitDialect.OPENAI, RateLimitDialect.GITHUB);
    assertThat(reading.observations()).extracting(o -> o.remaining().getAsLong()).containsExactly(7L, 10L, 900L, 4000L);
    assertThat(reading.notes()).isEmpty();
    assertThat(RateLimitReader.standard().read(MIXED, NOW)).isEqualTo(reading);
  }

  @Test
  void aPinnedDialectReadsOnlyItsOwnFields() {
    RateLimitReading reading = RateLimitReader.standard().read(MIXED, NOW, RateLimitDialect.GITHUB);
    assertThat(reading.observations()).singleElement().satisfies(o -> {
      assertThat(o.dialect()).isEqualTo(RateLimitDialect.GITHUB);
      assertThat(o.partition()).contains("core");
    });
  }

  @Test
  void aPinnedDialectIgnoresOtherDialectsGarbageToo() {
    Headers h = Headers.of("x-ratelimit-remaining-requests", "2", "RateLimit-Remaining", "junk");
    RateLimitReading reading = RateLimitReader.standard().read(h, NOW, RateLimitDialect.OPENAI);
    assertThat(reading.observations()).hasSize(1);
    assertThat(reading.notes()).isEmpty();
  }

  @Test
  void aPinnedDialectWhoseFieldsAreAbsentReadsNothing() {
    assertThat(RateLimitReader.standard().read(MIXED, NOW, RateLimitDialect.ANTHROPIC)).isEqualTo(RateLimitReading.empty());
  }

  @Test
  void noRateLimitFieldsIsAnEmptyReading() {
    RateLimitReading reading = RateLimitReader.standard().read(Headers.of("Content-Type", "application/json"), NOW);
    assertThat(reading.isEmpty()).isTrue();
    assertThat(reading.notes()).isEmpty();
  }

  @Test
  void notesOfEveryReaderAreCollected() {
    Headers h = Headers.of("RateLimit-Remaining", "-1", "x-ratelimit-reset-tokens", "soon", "x-ratelimit-remaining-tokens", "5");
    RateLimitReading reading = RateLimitReader.standard().read(h, NOW);
    assertThat(reading.observations()).singleElement().satisfies(o -> assertThat(o.dialect()).isEqualTo(RateLimitDialect.OPENAI));
    assertThat(reading.notes()).extracting(HeaderNote::header)
        .containsExactly("RateLimit-Remaining", "x-ratelimit-reset-tokens");
  }

  @Test
  void githubAndOpenAiAreToldApart() {
    RateLimitReader reader = RateLimitReader.standard();
    Headers openAi = Headers.of("x-ratelimit-limit-requests", "60", "x-ratelimit-reset-requests", "1s");
    Headers gitHub = Headers.of("x-ratelimit-limit", "60", "x-ratelimit-reset", "1792567680");
    assertThat(reader.read(openAi, NOW).observations()).extracting(RateLimitObservation::dialect).containsOnly(RateLimitDialect.OPENAI);
    assertThat(reader.read(gitHub, NOW).observations()).extracting(RateLimitObservation::dialect).containsOnly(RateLimitDialect.GITHUB);
  }

  @Test
  void standardKnowsTheNonIetfDialects() {
    RateLimitReader reader = RateLimitReader.standard();
    assertThat(reader.dialects()).contains(RateLimitDialect.LEGACY, RateLimitDialect.OPENAI,
        RateLimitDialect.ANTHROPIC, RateLimitDialect.GITHUB);
    assertThat(reader.supports(RateLimitDialect.AUTO)).isTrue();
  }

  @Test
  void anInjectedReaderIsReadFirstWhenGivenFirstAndCanBePinned() {
    RateLimitReader reader = RateLimitReader.of(List.of(new StubReader(RateLimitDialect.IETF, "RateLimit"), new LegacyRateLimitReader()));
    Headers h = Headers.of("RateLimit", "\"default\";r=1", "RateLimit-Remaining", "7");

    assertThat(reader.read(h, NOW).observations()).extracting(RateLimitObservation::dialect)
        .containsExactly(RateLimitDialect.IETF, RateLimitDialect.LEGACY);
    RateLimitReading pinned = reader.read(h, NOW, RateLimitDialect.IETF);
    assertThat(pinned.observations()).extracting(RateLimitObservation::dialect).containsExactly(RateLimitDialect.IETF);
    assertThat(pinned.notes()).extracting(HeaderNote::detail).containsExactly("stub note");
  }

  @Test
  void pinningADialectWithNoReaderIsAConfigurationErrorNamingWhatIsKnown() {
    RateLimitReader reader = RateLimitReader.of(List.of(new GitHubRateLimitReader()));
    assertThat(reader.supports(RateLimitDialect.OPENAI)).isFalse();
    assertThatThrownBy(() -> reader.read(MIXED, NOW, RateLimitDialect.OPENAI))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("openai")
        .hasMessageContaining("[github]");
  }

  @Test
  void twoReadersForOneDialectAreRefused() {
    assertThatThrownBy(() -> RateLimitReader.of(List.of(new GitHubRateLimitReader(), new StubReader(RateLimitDialect.GITHUB, "x"))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("two readers for dialect github");
  }

  @Test
  void aReaderClaimingAutoIsRefused() {
    assertThatThrownBy(() -> RateLimitReader.of(List.of(new StubReader(RateLimitDialect.AUTO, "x"))))
        .hasMessageContaining("AUTO");
  }

  @Test
  void aReaderThatThrowsIsContainedAndNotedWhileTheOthersStillCount() {
    RateLimitDialectReader broken = new RateLimitDialectReader() {
      @Override
      public RateLimitDialect dialect() {
        return RateLimitDialect.IETF;
      }

      @Override
      public boolean present(Headers headers) {
        return true;
      }

      @Override
      public List<RateLimitObservation> read(Headers headers, Instant now, List<HeaderNote> notes) {
        notes.add(new HeaderNote(HeaderFlag.CAPPED, "RateLimit", "half-written note"));
        throw new IllegalStateException("bug");
      }
    };
    RateLimitReader reader = RateLimitReader.of(List.of(broken, new LegacyRateLimitReader()));

    RateLimitReading reading = reader.read(Headers.of("RateLimit", "x", "RateLimit-Remaining", "7"), NOW);

    assertThat(reading.observations()).extracting(RateLimitObservation::dialect).containsExactly(RateLimitDialect.LEGACY);
    assertThat(reading.notes()).singleElement().satisfies(n -> {
      assertThat(n.flag()).isEqualTo(HeaderFlag.MALFORMED_HEADER_IGNORED);
      assertThat(n.header()).isEqualTo("ietf");
      assertThat(n.detail()).contains("IllegalStateException");
    });
  }
}
