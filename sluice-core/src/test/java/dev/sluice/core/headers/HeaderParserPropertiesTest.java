package dev.sluice.core.headers;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.core.http.Headers;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.constraints.LongRange;

/** Header parsers never throw on what a provider may send, and server delays always respect the policy. */
class HeaderParserPropertiesTest {

  static final List<String> VALID_SAMPLES = List.of(
      "120", "0", "Sun, 06 Nov 1994 08:49:37 GMT", "Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994",
      "Wed, 21 Oct 2026 07:28:00 GMT", "512.25", "6m0s", "1h2m3.5s", "12ms", "2026-10-21T07:28:00.5+02:00",
      "10, 10;w=1, 50;w=60", "5000", "core");

  static final List<String> RATE_LIMIT_NAMES = Stream.of(
          Stream.of("RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset", "RateLimit", "RateLimit-Policy"),
          Stream.of("limit", "remaining", "reset").flatMap(w -> Stream.of("requests", "tokens").map(u -> "x-ratelimit-" + w + "-" + u)),
          Stream.of("requests", "tokens", "input-tokens", "output-tokens")
              .flatMap(k -> Stream.of("limit", "remaining", "reset").map(w -> "anthropic-ratelimit-" + k + "-" + w)),
          Stream.of("limit", "remaining", "used", "reset", "resource").map(w -> "x-ratelimit-" + w),
          Stream.of("Retry-After", "retry-after-ms"))
      .flatMap(s -> s)
      .toList();

  @Property(tries = 2000)
  void retryAfterNeverThrowsAndAnyDelayLiesWithinThePolicy(
      @ForAll("fieldValues") String value, @ForAll("nows") Instant now, @ForAll("policies") RetryAfterPolicy policy) {
    assertWithinPolicy(RetryAfter.parse(value, now, policy), now, policy);
  }

  @Property(tries = 2000)
  void retryAfterMsNeverThrowsAndAnyDelayLiesWithinThePolicy(
      @ForAll("fieldValues") String value, @ForAll("nows") Instant now, @ForAll("policies") RetryAfterPolicy policy) {
    assertWithinPolicy(RetryAfter.parseMillis(value, now, policy), now, policy);
  }

  @Property
  void deltaSecondsAreClampedExactlyIntoThePolicy(
      @ForAll @LongRange(min = 0, max = 1_000_000_000_000L) long seconds, @ForAll("policies") RetryAfterPolicy policy) {
    Duration raw = Duration.ofSeconds(seconds);
    Duration expected = raw.compareTo(policy.cap()) > 0 ? policy.cap() : raw.compareTo(policy.minimumDelay()) < 0 ? policy.minimumDelay() : raw;
    RetryAfterResult r = RetryAfter.parse(Long.toString(seconds), Instant.EPOCH, policy);
    assertThat(r.delay()).contains(expected);
    assertThat(r.notes().isEmpty()).isEqualTo(raw.compareTo(policy.cap()) <= 0);
  }

  @Property(tries = 1000)
  void serverDelayNeverThrowsAndStaysWithinThePolicy(
      @ForAll("delayHeaders") Headers headers, @ForAll("nows") Instant now, @ForAll("policies") RetryAfterPolicy policy) {
    ServerDelayReading d = ServerDelayReading.read(headers, now, policy);
    d.delay().ifPresent(delay -> assertThat(delay).isBetween(policy.minimumDelay(), policy.cap()));
    assertThat(d.notes()).allSatisfy(HeaderParserPropertiesTest::isOneSafeLogLine);
    if (!headers.contains("Retry-After") && !headers.contains("retry-after-ms")) {
      assertThat(d.isPresent()).isFalse();
    }
  }

  @Property(tries = 1000)
  void everyReaderNeverThrowsOnAnyValuesOfItsFields(@ForAll("rateLimitHeaders") Headers headers, @ForAll("nows") Instant now) {
    RateLimitReader reader = RateLimitReader.standard();
    List<RateLimitDialect> modes = new ArrayList<>(reader.dialects());
    modes.add(RateLimitDialect.AUTO);
    for (RateLimitDialect mode : modes) {
      RateLimitReading reading = reader.read(headers, now, mode);
      // The aggregator contains a throwing reader by noting the dialect's name: none may need it.
      assertThat(reading.notes()).extracting(HeaderNote::header)
          .noneMatch(h -> Stream.of(RateLimitDialect.values()).anyMatch(d -> d.configName().equals(h)));
      assertThat(reading.notes()).allSatisfy(HeaderParserPropertiesTest::isOneSafeLogLine);
      assertThat(reading.observations()).allSatisfy(o -> {
        assertThat(o.limit().orElse(0)).isNotNegative();
        assertThat(o.remaining().orElse(0)).isNotNegative();
        o.window().ifPresent(w -> assertThat(w).isPositive());
        assertThat(o.sourceHeader()).isNotEmpty();
      });
      reading.mostConstrained().ifPresent(o -> assertThat(reading.observations()).contains(o));
      reading.mostConstrained(RateLimitObservation.Unit.TOKENS).ifPresent(o -> assertThat(reading.observations()).contains(o));
    }
  }

  static void assertWithinPolicy(RetryAfterResult r, Instant now, RetryAfterPolicy policy) {
    if (r.isPresent()) {
      Duration delay = r.delay().orElseThrow();
      assertThat(delay).isBetween(policy.minimumDelay(), policy.cap());
      assertThat(r.retryAt()).contains(plusOrMax(now, delay));
      assertThat(r.notes()).extracting(HeaderNote::flag).doesNotContain(HeaderFlag.MALFORMED_HEADER_IGNORED);
    } else {
      assertThat(r.notes()).extracting(HeaderNote::flag).containsExactly(HeaderFlag.MALFORMED_HEADER_IGNORED);
    }
    assertThat(r.notes()).allSatisfy(HeaderParserPropertiesTest::isOneSafeLogLine);
  }

  static Instant plusOrMax(Instant now, Duration d) {
    try {
      return now.plus(d);
    } catch (DateTimeException | ArithmeticException e) {
      return Instant.MAX;
    }
  }

  static void isOneSafeLogLine(HeaderNote n) {
    assertThat(n.detail()).hasSizeLessThan(300);
    assertThat(n.detail().chars()).allMatch(c -> c >= 0x20 && c < 0x7f);
  }

  @Provide
  Arbitrary<String> fieldValues() {
    Arbitrary<String> mutated = Combinators.combine(
            Arbitraries.of(VALID_SAMPLES), Arbitraries.integers().between(0, 40), Arbitraries.chars(), Arbitraries.integers().between(0, 2))
        .as(HeaderParserPropertiesTest::mutate);
    return Arbitraries.frequencyOf(
        Tuple.of(3, Arbitraries.strings()),
        Tuple.of(2, Arbitraries.strings().ascii().ofMaxLength(40)),
        Tuple.of(2, Arbitraries.strings().numeric().ofMaxLength(400)),
        Tuple.of(1, Arbitraries.strings().withChars("0123456789.-+ \t").ofMaxLength(30)),
        Tuple.of(1, Arbitraries.bigIntegers().map(Object::toString)),
        Tuple.of(1, Arbitraries.of(VALID_SAMPLES)),
        Tuple.of(4, mutated));
  }

  static String mutate(String s, int position, char c, int op) {
    int i = Math.min(position, s.length());
    return switch (op) {
      case 0 -> i < s.length() ? s.substring(0, i) + c + s.substring(i + 1) : s + c;
      case 1 -> s.substring(0, i) + c + s.substring(i);
      default -> i < s.length() ? s.substring(0, i) + s.substring(i + 1) : s.substring(0, Math.max(0, s.length() - 1));
    };
  }

  @Provide
  Arbitrary<Instant> nows() {
    return Arbitraries.oneOf(
        Arbitraries.longs().between(0, 4_102_444_800L).map(Instant::ofEpochSecond),
        Arbitraries.longs().between(Instant.MIN.getEpochSecond(), Instant.MAX.getEpochSecond()).map(Instant::ofEpochSecond),
        Arbitraries.of(Instant.MIN, Instant.MAX, Instant.EPOCH));
  }

  @Provide
  Arbitrary<RetryAfterPolicy> policies() {
    Arbitrary<Duration> minimum = Arbitraries.longs().between(1, 86_400_000_000_000L).map(Duration::ofNanos);
    Arbitrary<Duration> extra = Arbitraries.oneOf(
        Arbitraries.longs().between(0, 1_000_000L).map(Duration::ofSeconds),
        Arbitraries.longs().between(0, Long.MAX_VALUE / 2).map(Duration::ofSeconds));
    return Arbitraries.oneOf(
        Arbitraries.just(RetryAfterPolicy.defaults()),
        Combinators.combine(minimum, extra).as((min, plus) -> new RetryAfterPolicy(min, min.plus(plus))));
  }

  @Provide
  Arbitrary<Headers> delayHeaders() {
    return headersOver(List.of("Retry-After", "retry-after-ms"));
  }

  @Provide
  Arbitrary<Headers> rateLimitHeaders() {
    return headersOver(RATE_LIMIT_NAMES);
  }

  Arbitrary<Headers> headersOver(List<String> names) {
    Arbitrary<Map.Entry<String, String>> field = Combinators.combine(Arbitraries.of(names), fieldValues()).as(Map::entry);
    return field.list().ofMaxSize(8).map(fields -> {
      Headers.Builder b = Headers.builder();
      fields.forEach(f -> b.add(f.getKey(), f.getValue()));
      return b.build();
    });
  }
}
