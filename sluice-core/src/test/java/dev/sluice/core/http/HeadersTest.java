package dev.sluice.core.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;

class HeadersTest {

  @Test
  void namesAreCaseInsensitiveAndValuesKeepTheirOrder() {
    Headers h = Headers.of("RateLimit", "\"a\";r=1", "ratelimit", "\"b\";r=2", "Retry-After", "10");

    assertThat(h.first("RATELIMIT")).contains("\"a\";r=1");
    assertThat(h.all("RateLimit")).containsExactly("\"a\";r=1", "\"b\";r=2");
    assertThat(h.combined("ratelimit")).contains("\"a\";r=1, \"b\";r=2");
    assertThat(h.first("retry-after")).contains("10");
    assertThat(h.names()).containsExactly("ratelimit", "retry-after");
  }

  @Test
  void absentFieldsAreEmptyNotNull() {
    Headers h = Headers.empty();
    assertThat(h.first("x")).isEmpty();
    assertThat(h.all("x")).isEmpty();
    assertThat(h.combined("x")).isEmpty();
    assertThat(h.isEmpty()).isTrue();
  }

  @Test
  void fromAMapLikeTheJdkClientGivesIt() {
    Headers h = Headers.of(Map.of("X-RateLimit-Reset", List.of("1700000000")));
    assertThat(h.first("x-ratelimit-reset")).contains("1700000000");
  }

  @Test
  void toStringNamesTheFieldsButNeverShowsAValue() {
    Headers h = Headers.of("Authorization", "Bearer canary-s3cret", "X-Api-Key", "canary-k3y", "Retry-After", "10");
    assertThat(h.toString()).contains("authorization", "x-api-key", "retry-after").doesNotContain("canary", "10");
  }

  @Test
  void oddPairsAreRefusedWithTheCount() {
    assertThatThrownBy(() -> Headers.of("a")).hasMessageContaining("odd count: 1");
  }

  @Property(tries = 200)
  void lookupIgnoresCase(@ForAll("names") String name, @ForAll String value) {
    Headers h = Headers.of(name, value);
    assertThat(h.first(name.toUpperCase(java.util.Locale.ROOT))).contains(value);
    assertThat(h.first(name.toLowerCase(java.util.Locale.ROOT))).contains(value);
  }

  @net.jqwik.api.Provide
  net.jqwik.api.Arbitrary<String> names() {
    return net.jqwik.api.Arbitraries.strings().withCharRange('a', 'z').withChars('-', 'A', 'Z').ofMinLength(1).ofMaxLength(20);
  }
}
