package dev.sluice.core.headers;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.core.http.Headers;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class AnthropicRateLimitReaderTest {
  static final Instant NOW = Instant.parse("2026-10-21T07:27:00Z");
  final AnthropicRateLimitReader reader = new AnthropicRateLimitReader();
  final List<HeaderNote> notes = new ArrayList<>();

  List<RateLimitObservation> read(String... namesAndValues) {
    return reader.read(Headers.of(namesAndValues), NOW, notes);
  }

  @Test
  void readsEveryKindAsItsOwnObservation() {
    List<RateLimitObservation> obs = read(
        "anthropic-ratelimit-requests-limit", "50",
        "anthropic-ratelimit-requests-remaining", "49",
        "anthropic-ratelimit-requests-reset", "2026-10-21T07:28:00Z",
        "anthropic-ratelimit-tokens-limit", "80000",
        "anthropic-ratelimit-tokens-remaining", "79000",
        "anthropic-ratelimit-tokens-reset", "2026-10-21T07:27:30Z",
        "anthropic-ratelimit-input-tokens-limit", "40000",
        "anthropic-ratelimit-input-tokens-remaining", "39500",
        "anthropic-ratelimit-input-tokens-reset", "2026-10-21T07:27:10Z",
        "anthropic-ratelimit-output-tokens-limit", "8000",
        "anthropic-ratelimit-output-tokens-remaining", "7500",
        "anthropic-ratelimit-output-tokens-reset", "2026-10-21T07:27:20Z");

    assertThat(obs).extracting(RateLimitObservation::unit).containsExactly(
        RateLimitObservation.Unit.REQUESTS, RateLimitObservation.Unit.TOKENS,
        RateLimitObservation.Unit.TOKENS, RateLimitObservation.Unit.TOKENS);
    assertThat(obs).extracting(RateLimitObservation::partition).containsExactly(
        Optional.empty(), Optional.of("tokens"), Optional.of("input-tokens"), Optional.of("output-tokens"));
    assertThat(obs.get(0)).satisfies(o -> {
      assertThat(o.dialect()).isEqualTo(RateLimitDialect.ANTHROPIC);
      assertThat(o.limit()).hasValue(50);
      assertThat(o.remaining()).hasValue(49);
      assertThat(o.resetAt()).contains(Instant.parse("2026-10-21T07:28:00Z"));
      assertThat(o.window()).isEmpty();
      assertThat(o.sourceHeader()).isEqualTo(
          "anthropic-ratelimit-requests-limit, anthropic-ratelimit-requests-remaining, anthropic-ratelimit-requests-reset");
    });
    assertThat(obs.get(3).remaining()).hasValue(7500);
    assertThat(obs.get(2).resetAt()).contains(Instant.parse("2026-10-21T07:27:10Z"));
    assertThat(notes).isEmpty();
  }

  @Test
  void resetsWithAnOffsetAndFractionAreAbsoluteInstants() {
    assertThat(read("anthropic-ratelimit-requests-reset", "2026-10-21T09:28:00.250+02:00")).singleElement()
        .satisfies(o -> assertThat(o.resetAt()).contains(Instant.parse("2026-10-21T07:28:00.250Z")));
  }

  @Test
  void aResetThatIsNotRfc3339IsNotedAndTheRestKept() {
    List<RateLimitObservation> obs = read(
        "anthropic-ratelimit-tokens-remaining", "10", "anthropic-ratelimit-tokens-reset", "1792567680");
    assertThat(obs).singleElement().satisfies(o -> {
      assertThat(o.remaining()).hasValue(10);
      assertThat(o.resetAt()).isEmpty();
    });
    assertThat(notes).singleElement().satisfies(n -> {
      assertThat(n.flag()).isEqualTo(HeaderFlag.MALFORMED_HEADER_IGNORED);
      assertThat(n.header()).isEqualTo("anthropic-ratelimit-tokens-reset");
      assertThat(n.detail()).contains("RFC 3339");
    });
  }

  @Test
  void negativeLimitsAreNoted() {
    assertThat(read("anthropic-ratelimit-output-tokens-limit", "-1")).isEmpty();
    assertThat(notes).singleElement().satisfies(n -> assertThat(n.detail()).contains("negative"));
  }

  @Test
  void otherAnthropicFieldsAreNotThisDialect() {
    Headers other = Headers.of("anthropic-ratelimit-unified-status", "allowed", "anthropic-organization-id", "x");
    assertThat(reader.present(other)).isFalse();
    assertThat(reader.read(other, NOW, notes)).isEmpty();
    assertThat(reader.present(Headers.of("Anthropic-RateLimit-Input-Tokens-Reset", "x"))).isTrue();
  }
}
