package dev.sluice.core.headers;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.core.http.Headers;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class ServerDelayTest {
  static final Instant NOW = Instant.parse("2026-10-21T07:27:00Z");
  static final RetryAfterPolicy DEFAULTS = RetryAfterPolicy.defaults();

  static ServerDelayReading read(String... namesAndValues) {
    return ServerDelayReading.read(Headers.of(namesAndValues), NOW, DEFAULTS);
  }

  @Test
  void retryAfterAloneIsTheDelay() {
    ServerDelayReading d = read("Retry-After", "10");
    assertThat(d.delay()).contains(Duration.ofSeconds(10));
    assertThat(d.source()).contains(ServerDelayReading.Source.RETRY_AFTER);
    assertThat(d.source().orElseThrow().code()).isEqualTo("retry-after");
    assertThat(d.retryAt()).contains(NOW.plusSeconds(10));
    assertThat(d.notes()).isEmpty();
  }

  @Test
  void anHttpDateRetryAfterIsReadToo() {
    assertThat(read("Retry-After", "Wed, 21 Oct 2026 07:28:00 GMT").delay()).contains(Duration.ofSeconds(60));
  }

  @Test
  void retryAfterMsAloneIsTheDelay() {
    ServerDelayReading d = read("retry-after-ms", "2500");
    assertThat(d.delay()).contains(Duration.ofMillis(2500));
    assertThat(d.source()).contains(ServerDelayReading.Source.RETRY_AFTER_MS);
    assertThat(d.source().orElseThrow().code()).isEqualTo("retry-after-ms");
  }

  @Test
  void whenBothAreSentTheLongerWins() {
    assertThat(read("Retry-After", "2", "retry-after-ms", "2500").source()).contains(ServerDelayReading.Source.RETRY_AFTER_MS);
    assertThat(read("Retry-After", "2", "retry-after-ms", "2500").delay()).contains(Duration.ofMillis(2500));
    assertThat(read("Retry-After", "3", "retry-after-ms", "2500").source()).contains(ServerDelayReading.Source.RETRY_AFTER);
    assertThat(read("Retry-After", "3", "retry-after-ms", "2500").delay()).contains(Duration.ofSeconds(3));
  }

  @Test
  void aTieAfterBoundsGoesToTheStandardField() {
    // OpenAI's usual pair: both become the 1 s minimum.
    ServerDelayReading d = read("Retry-After", "0", "retry-after-ms", "512");
    assertThat(d.delay()).contains(Duration.ofSeconds(1));
    assertThat(d.source()).contains(ServerDelayReading.Source.RETRY_AFTER);
  }

  @Test
  void aMalformedFieldIsNotedAndTheOtherStillCounts() {
    ServerDelayReading d = read("Retry-After", "soon", "retry-after-ms", "1500");
    assertThat(d.delay()).contains(Duration.ofMillis(1500));
    assertThat(d.source()).contains(ServerDelayReading.Source.RETRY_AFTER_MS);
    assertThat(d.notes()).singleElement().satisfies(n -> {
      assertThat(n.flag()).isEqualTo(HeaderFlag.MALFORMED_HEADER_IGNORED);
      assertThat(n.header()).isEqualTo("Retry-After");
    });
  }

  @Test
  void theLosersNotesAreKeptToo() {
    ServerDelayReading d = read("Retry-After", "Sun, 06 Nov 1994 08:49:37 GMT", "retry-after-ms", "99999999999");
    assertThat(d.delay()).contains(Duration.ofHours(1));
    assertThat(d.source()).contains(ServerDelayReading.Source.RETRY_AFTER_MS);
    assertThat(d.notes()).extracting(HeaderNote::flag).containsExactly(HeaderFlag.CLOCK_SKEW, HeaderFlag.CAPPED);
  }

  @Test
  void noDelayFieldsIsNoDelay() {
    ServerDelayReading d = read("Content-Type", "text/plain");
    assertThat(d.isPresent()).isFalse();
    assertThat(d.source()).isEmpty();
    assertThat(d.retryAt()).isEmpty();
    assertThat(d.notes()).isEmpty();
  }

  @Test
  void bothMalformedIsNoDelayWithTwoNotes() {
    ServerDelayReading d = read("Retry-After", "-1", "retry-after-ms", "-1");
    assertThat(d.isPresent()).isFalse();
    assertThat(d.notes()).extracting(HeaderNote::header).containsExactly("Retry-After", "retry-after-ms");
  }

  @Test
  void differingRetryAfterLinesKeepTheLongestAndAreFlagged() {
    ServerDelayReading d = read("Retry-After", "10", "Retry-After", "30", "Retry-After", "junk");
    assertThat(d.delay()).contains(Duration.ofSeconds(30));
    assertThat(d.notes()).extracting(HeaderNote::flag)
        .containsExactly(HeaderFlag.MALFORMED_HEADER_IGNORED, HeaderFlag.CONFLICTING_HEADERS);
    assertThat(d.notes().get(1).detail()).contains("3 different values").contains("PT30S");
  }

  @Test
  void identicalRepeatedLinesAreNotAConflict() {
    ServerDelayReading d = read("Retry-After", "10", "retry-after", " 10 ");
    assertThat(d.delay()).contains(Duration.ofSeconds(10));
    assertThat(d.notes()).isEmpty();
  }
}
