package dev.sluice.core.headers;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.core.http.Headers;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.statistics.Statistics;

/** The IETF reader never throws and never reports an impossible value, whatever the headers say. */
class IetfRateLimitReaderPropertiesTest {
  private static final Instant NOW = Instant.parse("2026-10-21T07:27:00Z");
  private final IetfRateLimitReader reader = new IetfRateLimitReader();

  @Property(tries = 1500)
  void neverThrowsAndOnlyReportsSaneValues(@ForAll("rateLimits") String rateLimit, @ForAll("policies") String policy) {
    List<HeaderNote> notes = new ArrayList<>();
    List<RateLimitObservation> obs = reader.read(Headers.of("RateLimit", rateLimit, "RateLimit-Policy", policy), NOW, notes);

    for (RateLimitObservation o : obs) {
      assertThat(o.dialect()).isEqualTo(RateLimitDialect.IETF);
      assertThat(o.partition()).isPresent();
      o.remaining().ifPresent(r -> assertThat(r).isNotNegative());
      o.limit().ifPresent(q -> assertThat(q).isNotNegative());
      o.window().ifPresent(w -> assertThat(w.isPositive()).isTrue());
      o.resetAt().ifPresent(t -> assertThat(t).isAfterOrEqualTo(NOW));
      assertThat(o.sourceHeader()).isIn("RateLimit", "RateLimit-Policy", "RateLimit, RateLimit-Policy");
    }
    assertThat(obs).extracting(o -> o.partition().orElseThrow()).doesNotHaveDuplicates();
    Statistics.label("observations").collect(obs.isEmpty() ? "none" : "some");
    notes.forEach(n -> assertThat(n.header()).isIn("RateLimit", "RateLimit-Policy"));
  }

  @Provide
  Arbitrary<String> rateLimits() {
    return fieldValues("r");
  }

  @Provide
  Arbitrary<String> policies() {
    return fieldValues("q");
  }

  /**
   * Mostly list-shaped values built from plausible and implausible pieces (members usually start
   * with the field's required parameter, so that some survive), plus raw noise.
   */
  private Arbitrary<String> fieldValues(String required) {
    Arbitrary<String> name = Arbitraries.frequencyOf(
        Tuple.of(8, Arbitraries.of("\"a\"", "\"b\"", "\"day\"", "default")),
        Tuple.of(1, Arbitraries.of("7", "?1", "(\"a\" \"b\")", "\"\"", ":AQID:")));
    Arbitrary<String> key = Arbitraries.frequencyOf(
        Tuple.of(4, Arbitraries.of("r", "q")),
        Tuple.of(3, Arbitraries.of("t", "w", "qu", "pk")),
        Tuple.of(1, Arbitraries.of("acme-x", "R")));
    Arbitrary<String> value = Arbitraries.frequencyOf(
        Tuple.of(10, Arbitraries.of("=0", "=1", "=30", "=999999999999999", "=\"requests\"", "=\"content-bytes\"", "=:AQID:")),
        Tuple.of(4, Arbitraries.of("", "=-1", "=1.5", "=\"widgets\"", "=concurrent-requests", "=?0", "=@1", "=%\"x\"")),
        Tuple.of(1, Arbitraries.of("=1234567890123456", "=:!!:", "=", "=\"")));
    Arbitrary<String> param = Combinators.combine(key, value).as((k, v) -> ";" + k + v);
    Arbitrary<String> first = Arbitraries.frequencyOf(
        Tuple.of(4, Arbitraries.of(";" + required + "=0", ";" + required + "=5", ";" + required + "=999999999999999")),
        Tuple.of(1, param));
    Arbitrary<String> member = Combinators.combine(name, first, param.list().ofMaxSize(3)).as((n, f, ps) -> n + f + String.join("", ps));
    Arbitrary<String> list = Combinators.combine(Arbitraries.of(", ", ",", " ,\t"), member.list().ofMaxSize(4)).as(String::join);
    return Arbitraries.frequencyOf(
        Tuple.of(6, list),
        Tuple.of(2, Arbitraries.strings().withChars(" \t,;=()\"\\:?@%*-.0123456789rtqwpku").ofMaxLength(30)),
        Tuple.of(1, Arbitraries.strings().ofMaxLength(20)));
  }
}
