package dev.sluice.core.policy;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.StringLength;

/**
 * Properties over arbitrary input: the loader's only failure is a {@link PolicyException} with
 * positioned problems; route matching and path checks never throw; matching agrees with the
 * safety check and round-trips encoded values.
 */
class PolicyPropertiesTest {

  private static final String EXAMPLE = read(Path.of("..", "examples", "sluice.yaml"));

  private static String read(Path p) {
    try {
      return Files.readString(p);
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  /** Loads, and checks the only possible failure is a well-formed PolicyException. */
  private static void loadsOrReportsProblems(String text) {
    try {
      PolicyLoader.parse(text, "fuzz.yaml");
    } catch (PolicyException e) {
      assertThat(e.problems()).isNotEmpty();
      for (Problem p : e.problems()) {
        assertThat(p.file()).isEqualTo("fuzz.yaml");
        assertThat((long) p.line()).isBetween(0L, text.lines().count() + 2);
        assertThat(p.message()).isNotBlank().doesNotContain("please report");
      }
      assertThat(e.getMessage().lines().count()).isEqualTo(e.problems().size());
    }
  }

  @Property(tries = 500)
  void theLoaderOnlyEverThrowsPolicyExceptionOnArbitraryText(@ForAll @StringLength(max = 400) String text) {
    loadsOrReportsProblems(text);
  }

  @Property(tries = 500)
  void theLoaderOnlyEverThrowsPolicyExceptionOnYamlishText(@ForAll("yamlish") String text) {
    loadsOrReportsProblems(text);
  }

  @Property(tries = 300)
  void theLoaderOnlyEverThrowsPolicyExceptionOnAMutatedExample(@ForAll("mutatedExample") String text) {
    loadsOrReportsProblems(text);
  }

  @Property(tries = 1000)
  void routeMatchingNeverThrowsOnArbitraryPaths(@ForAll("paths") String path) {
    RouteTemplate t = RouteTemplate.compile("/v1/items/{id}/parts/{part}");

    var matched = t.match(path);
    var refusal = PathSafety.check(path);
    RouteTemplate.any().match(path);

    if (matched.isPresent()) {
      assertThat(refusal).as("a matched path is always a safe path").isEmpty();
      assertThat(matched.get().values()).allSatisfy(v -> assertThat(v).isNotEmpty());
    }
    if (refusal.isPresent()) {
      assertThat(matched).isEmpty();
    }
  }

  @Property(tries = 1000)
  void classifyEitherRefusesAnUnsafePathOrReturnsARoute(@ForAll("paths") String path, @ForAll("methods") String method) {
    Provider p = Provider.builder("api", "https://api.example.com")
        .route(Route.builder("GET", "/v1/items/{id}", "read").build())
        .route(Route.builder("POST", "/v1/items", "idempotent_write").build())
        .build();
    try {
      RouteMatch m = p.classify(method, path);
      assertThat(m.requestClass()).isIn("read", "idempotent_write", "uncertain_write");
      assertThat(PathSafety.check(path)).isEmpty();
    } catch (IllegalArgumentException e) {
      assertThat(PathSafety.check(path)).isPresent();
    }
  }

  @Property(tries = 1000)
  void anExpandedValueEitherRoundTripsOrIsRefusedNeverMisrouted(@ForAll @StringLength(min = 1, max = 30) String value) {
    net.jqwik.api.Assume.that(!value.equals(".") && !value.equals(".."));
    net.jqwik.api.Assume.that(value.codePoints().noneMatch(c -> c >= 0xD800 && c <= 0xDFFF));
    LookupTemplate lookup = LookupTemplate.compile("/v1/items/{id}");
    RouteTemplate route = RouteTemplate.compile("/v1/items/{id}");

    String path = lookup.expand(Map.of("id", value));

    if (PathSafety.check(path).isEmpty()) {
      assertThat(route.match(path)).contains(Map.of("id", value));
    } else {
      // Values holding '/', '\', control characters or a %-sequence that decodes to a slash or
      // dot cannot be sent safely in a path; they are refused, never matched as something else.
      assertThat(value.chars().anyMatch(c -> c == '/' || c == '\\' || c == '%' || c < 0x20 || c == 0x7f)).isTrue();
      assertThat(route.match(path)).isEmpty();
    }
  }

  @Provide
  Arbitrary<String> paths() {
    Arbitrary<String> pieces = Arbitraries.oneOf(
        Arbitraries.of("/", "//", ".", "..", "%2e", "%2E", "%2f", "%2F", "%5c", "\\", "%25", "%", "%zz", "?", "#", ";", "{", "}",
            "v1", "items", "parts", "7", "%C3%A9", "%FF", " ", "%00", "~", "http://x"),
        Arbitraries.strings().ofMaxLength(4));
    return pieces.list().ofMaxSize(12).map(l -> String.join("", l));
  }

  @Provide
  Arbitrary<String> methods() {
    return Arbitraries.of("GET", "HEAD", "POST", "PUT", "DELETE", "get", "PATCH");
  }

  @Provide
  Arbitrary<String> yamlish() {
    Arbitrary<String> tokens = Arbitraries.of(
        "providers:", "request_classes:", "agents:", "routes:", "\n", "\n  ", "\n    ", "\n      - ", "- ", ": ", "{", "}", "[", "]",
        ", ", "base_url: https://a.example.com", "method: GET", "path: /v1/{id}", "class: read", "max_attempts: 4", "&a ", "*a",
        "<<: *a", "!!str ", "!!java.lang.Object ", "---", "\"", "'", "#", "lookup: {path: \"/x?k={idempotency_key}\"}",
        "secret_env: X", "token_env: Y", "providers: [a]", "id: a", "~", "null", "1e9", "0x1F", "-1", "yes", ".inf", "\t");
    return tokens.list().ofMaxSize(40).map(l -> String.join("", l));
  }

  @Provide
  Arbitrary<String> mutatedExample() {
    List<String> lines = EXAMPLE.lines().toList();
    Arbitrary<Integer> index = Arbitraries.integers().between(0, lines.size() - 1);
    Arbitrary<String> junk = Arbitraries.of("", "x", ":", "  ", "- ", "{", "]", "\"", "&a", "*a", "0", "-1", "true", "~", "%2e%2e");
    Arbitrary<int[]> edit = Combinators.combine(index, Arbitraries.integers().between(0, 3), Arbitraries.integers().between(0, 200))
        .as((i, kind, col) -> new int[] {i, kind, col});
    return Combinators.combine(edit.list().ofMinSize(1).ofMaxSize(4), junk.list().ofMinSize(4).ofMaxSize(4)).as((edits, junks) -> {
      List<String> out = new ArrayList<>(lines);
      int j = 0;
      for (int[] e : edits) {
        int i = Math.min(e[0], out.size() - 1);
        if (i < 0) {
          break;
        }
        String line = out.get(i);
        String piece = junks.get(j++ % junks.size());
        switch (e[1]) {
          case 0 -> out.remove(i);
          case 1 -> out.add(i, line);
          default -> {
            int c = Math.min(e[2], line.length());
            out.set(i, line.substring(0, c) + piece + line.substring(Math.min(line.length(), c + (e[1] == 2 ? 1 : 0))));
          }
        }
      }
      return String.join("\n", out) + "\n";
    });
  }
}
