package dev.sluice.core.policy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/** The route matching rule of {@link RouteTemplate} and {@link Provider#classify}, case by case. */
class RouteMatchingTest {

  @Nested
  class Templates {
    final RouteTemplate invoice = RouteTemplate.compile("/v1/invoices/{id}");

    @Test
    void aParameterMatchesOneSegmentAndIsDecoded() {
      assertThat(invoice.match("/v1/invoices/inv_7")).contains(Map.of("id", "inv_7"));
      assertThat(invoice.match("/v1/invoices/a%20b%C3%A9")).contains(Map.of("id", "a bé"));
    }

    @Test
    void aParameterNeverSpansTwoSegmentsNorMatchesAnEmptyOne() {
      assertThat(invoice.match("/v1/invoices/a/b")).isEmpty();
      assertThat(invoice.match("/v1/invoices/")).isEmpty();
      assertThat(invoice.match("/v1/invoices")).isEmpty();
    }

    @Test
    void theQueryStringPlaysNoPartInMatching() {
      assertThat(invoice.match("/v1/invoices/7?expand=lines&x=%2F")).contains(Map.of("id", "7"));
      assertThat(RouteTemplate.compile("/v1/x").matches("/v1/x?")).isTrue();
    }

    @Test
    void aTrailingSlashIsADifferentPath() {
      RouteTemplate bare = RouteTemplate.compile("/v1/x");
      RouteTemplate slashed = RouteTemplate.compile("/v1/x/");

      assertThat(bare.matches("/v1/x")).isTrue();
      assertThat(bare.matches("/v1/x/")).isFalse();
      assertThat(slashed.matches("/v1/x/")).isTrue();
      assertThat(slashed.matches("/v1/x")).isFalse();
    }

    @Test
    void theRootTemplateMatchesOnlyTheRoot() {
      RouteTemplate root = RouteTemplate.compile("/");

      assertThat(root.matches("/")).isTrue();
      assertThat(root.matches("/?q=1")).isTrue();
      assertThat(root.matches("/x")).isFalse();
    }

    @Test
    void literalsAreCaseSensitive() {
      assertThat(invoice.matches("/V1/invoices/7")).isFalse();
      assertThat(invoice.matches("/v1/Invoices/7")).isFalse();
    }

    @Test
    void encodedUnreservedCharactersEqualTheirPlainForm() {
      assertThat(invoice.matches("/v1/%69nvoices/7")).isTrue();
      assertThat(RouteTemplate.compile("/v1/~me").matches("/v1/%7Eme")).isTrue();
      assertThat(RouteTemplate.compile("/v1/%7eme").matches("/v1/~me")).isTrue();
    }

    @Test
    void otherEncodingsAreComparedEncodedWithoutRegardToHexCase() {
      RouteTemplate colon = RouteTemplate.compile("/v1/a%3Ab");

      assertThat(colon.matches("/v1/a%3ab")).isTrue();
      assertThat(colon.matches("/v1/a:b")).as("a reserved character is not its encoding").isFalse();
    }

    @ParameterizedTest(name = "{0} is unsafe and matches nothing")
    @ValueSource(strings = {
        "/v1/invoices/..", "/v1/invoices/.", "/v1/invoices/%2e%2e", "/v1/invoices/%2E%2E", "/v1/invoices/.%2e",
        "/v1/invoices/..;x", "/v1/invoices/a%2Fb", "/v1/invoices/a%2fb", "/v1/invoices/a%5Cb", "/v1/invoices/a\\b",
        "/v1//invoices/7", "//v1/invoices/7", "/v1/invoices/7#frag", "/v1/invoices/%zz", "/v1/invoices/%4",
        "/v1/invoices/%252e%252e", "/v1/invoices/%252F", "/v1/invoices/a b", "/v1/invoices/%00", "/v1/invoices/%FF",
        "http://evil.example/v1/invoices/7", "v1/invoices/7", "", "*"})
    void unsafePathsMatchNothing(String path) {
      assertThat(invoice.match(path)).isEmpty();
      assertThat(RouteTemplate.any().match(path)).isEmpty();
      assertThat(RouteTemplate.unsafePath(path)).isPresent();
    }

    @Test
    void aDotSegmentElsewhereInThePathIsAlsoRefused() {
      // /v1/x/../invoices/7 would normalize to /v1/invoices/7 at some servers: never match it.
      assertThat(invoice.match("/v1/x/../invoices/7")).isEmpty();
    }

    @Test
    void nullNeverMatchesAndNeverThrows() {
      assertThat(invoice.match(null)).isEmpty();
      assertThat(RouteTemplate.unsafePath(null)).isPresent();
    }

    @Test
    void dotsInsideASegmentAreFine() {
      assertThat(RouteTemplate.compile("/v1/files/{name}").match("/v1/files/report.v2..pdf")).contains(Map.of("name", "report.v2..pdf"));
      assertThat(RouteTemplate.compile("/v1/...").matches("/v1/...")).isTrue();
    }

    @Test
    void shapeIgnoresParameterNames() {
      assertThat(RouteTemplate.compile("/v1/x/{id}").shape()).isEqualTo(RouteTemplate.compile("/v1/x/{key}").shape());
      assertThat(RouteTemplate.compile("/v1/%7Ex").shape()).isEqualTo(RouteTemplate.compile("/v1/~x").shape());
      assertThat(RouteTemplate.compile("/v1/x/").shape()).isNotEqualTo(RouteTemplate.compile("/v1/x").shape());
    }

    @Test
    void compileRefusesBadTemplatesWithTheReason() {
      assertThatThrownBy(() -> RouteTemplate.compile("/v1/%2F")).hasMessageContaining("encoded slash");
      assertThatThrownBy(() -> RouteTemplate.compile("/v1/%2e%2e")).hasMessageContaining("dot-segment");
      assertThatThrownBy(() -> RouteTemplate.compile("/v1/{a-b}")).hasMessageContaining("must match");
      assertThatThrownBy(() -> RouteTemplate.compile("/v1/{}")).hasMessageContaining("must match");
      assertThatThrownBy(() -> RouteTemplate.compile("/v1/x#y")).hasMessageContaining("'#'");
      assertThatThrownBy(() -> RouteTemplate.compile("")).hasMessageContaining("start with '/'");
    }
  }

  @Nested
  class Safety {
    @ParameterizedTest(name = "{0} → {1}")
    @CsvSource(delimiter = '|', value = {
        "/a/../b | dot_segment",
        "/a/%2e%2E/b | dot_segment",
        "/a/./b | dot_segment",
        "/a/..;jsessionid=1/b | dot_segment",
        "/a%2Fb | encoded_slash",
        "/a%5cb | encoded_backslash",
        "/a\\b | backslash",
        "/a//b | empty_segment",
        "/a/%252e%252e/b | double_encoding",
        "/a/%0d%0aHost:x | encoded_control",
        "/a/%zz | bad_percent_encoding",
        "/a/%C3 | bad_utf8",
        "/a b | bad_character",
        "/a?b c | bad_character",
        "/a?b=%zz | bad_percent_encoding",
        "/a#b | fragment",
        "https://x/a | not_origin_form",
        "* | not_origin_form",
    })
    void everyUnsafeFormHasAReason(String path, String code) {
      assertThat(PathSafety.check(path)).hasValueSatisfying(r -> assertThat(r.code()).isEqualTo(code));
    }

    @ParameterizedTest
    @ValueSource(strings = {"/", "/a", "/a/", "/a/b?c=d&e=%2F", "/a/%20b", "/a/b;v=1", "/a/~x", "/a/.b", "/a/b..", "/a@b:c!$&'()*+,;="})
    void ordinaryPathsAreSafe(String path) {
      assertThat(PathSafety.check(path)).isEmpty();
    }

    @Test
    void anOverlongPathIsRefused() {
      assertThat(PathSafety.check("/" + "a".repeat(PathSafety.MAX_LENGTH))).hasValueSatisfying(r -> assertThat(r.code()).isEqualTo("too_long"));
    }
  }

  @Nested
  class Classification {
    final Provider provider = Provider.builder("api", "https://api.example.com")
        .route(Route.builder("GET", "/v1/items/{id}", "read").build())
        .route(Route.builder("GET", "/v1/items/latest", "read").immutable(true).build())
        .route(Route.builder("GET", "/v1/{kind}/{id}", "read").build())
        .route(Route.builder("POST", "/v1/items", "idempotent_write").build())
        .route(Route.builder("POST", "/v1/{kind}", "uncertain_write").build())
        .build();

    @Test
    void moreLiteralSegmentsWinOverDeclarationOrder() {
      RouteMatch m = provider.classify("GET", "/v1/items/latest");

      assertThat(m.declared()).isTrue();
      assertThat(m.route().path().template()).isEqualTo("/v1/items/latest");
      assertThat(m.pathParameters()).isEmpty();
    }

    @Test
    void withEqualLiteralsTheFirstDeclaredWins() {
      Provider p = Provider.builder("api", "https://api.example.com")
          .route(Route.builder("GET", "/v1/{a}/x", "read").build())
          .route(Route.builder("GET", "/v1/x/{b}", "uncertain_write").build())
          .build();

      RouteMatch m = p.classify("GET", "/v1/x/x");

      assertThat(m.route().path().template()).isEqualTo("/v1/{a}/x");
      assertThat(m.pathParameters()).isEqualTo(Map.of("a", "x"));
    }

    @Test
    void theMethodMustMatchExactly() {
      assertThat(provider.classify("POST", "/v1/items").requestClass()).isEqualTo("idempotent_write");
      assertThat(provider.classify("POST", "/v1/orders").requestClass()).isEqualTo("uncertain_write");
      assertThat(provider.classify("GET", "/v1/items/7").pathParameters()).isEqualTo(Map.of("id", "7"));
      assertThat(provider.classify("GET", "/v1/orders/7").pathParameters()).isEqualTo(Map.of("kind", "orders", "id", "7"));
    }

    @ParameterizedTest(name = "unmatched {0} → {1}")
    @CsvSource({"GET, read", "HEAD, read", "POST, uncertain_write", "PUT, uncertain_write", "PATCH, uncertain_write",
        "DELETE, uncertain_write", "OPTIONS, uncertain_write", "get, uncertain_write"})
    void unmatchedRequestsFollowTheMethodRule(String method, String expectedClass) {
      RouteMatch m = provider.classify(method, "/elsewhere/1");

      assertThat(m.declared()).isFalse();
      assertThat(m.requestClass()).isEqualTo(expectedClass);
      assertThat(m.route().path()).isEqualTo(RouteTemplate.any());
      assertThat(m.route().immutable()).isFalse();
      assertThat(m.route().approval()).isEqualTo(Approval.NONE);
      assertThat(m.pathParameters()).isEmpty();
    }

    @Test
    void aTrailingSlashVariantIsUnmatchedAndSoTreatedByTheMethodRule() {
      assertThat(provider.classify("POST", "/v1/items/").declared()).isFalse();
      assertThat(provider.classify("POST", "/v1/items/").requestClass()).isEqualTo("uncertain_write");
    }

    @Test
    void anUnsafePathIsRefusedNotClassified() {
      assertThatThrownBy(() -> provider.classify("GET", "/v1/items/%2e%2e"))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageStartingWith("unsafe path (dot_segment)");
    }

    @Test
    void thePolicyResolvesTheClassOfAMatch() {
      Policy policy = Policy.builder().provider(provider).build();

      RouteMatch m = policy.provider("api").orElseThrow().classify("DELETE", "/v1/items/7");

      assertThat(policy.requestClass(m).maxAttempts()).isEqualTo(1);
    }
  }

  @Nested
  class Lookups {
    @Test
    void valuesAreEncodedSoTheyCannotAddSegmentsOrParameters() {
      LookupTemplate t = LookupTemplate.compile("/v1/records/{id}/ops?ref={external_reference}&x=1");

      assertThat(t.placeholders()).containsExactlyInAnyOrder("id", "external_reference");
      assertThat(t.expand(Map.of("id", "a/b", "external_reference", "r&x=2#"))).isEqualTo("/v1/records/a%2Fb/ops?ref=r%26x%3D2%23&x=1");
    }

    @Test
    void aPathValueThatWouldBeADotSegmentIsRefused() {
      LookupTemplate t = LookupTemplate.compile("/v1/records/{id}");

      assertThatThrownBy(() -> t.expand(Map.of("id", ".."))).hasMessageContaining("dot-segment");
      assertThatThrownBy(() -> t.expand(Map.of("id", ""))).hasMessageContaining("empty");
      assertThatThrownBy(() -> t.expand(Map.of())).hasMessageContaining("no value for {id}");
    }

    @Test
    void anExpandedLookupIsASafePath() {
      LookupTemplate t = LookupTemplate.compile("/v1/transfers?idempotency_key={idempotency_key}");

      assertThat(PathSafety.check(t.expand(Map.of("idempotency_key", "transfer-7c41 ?/..")))).isEmpty();
    }
  }
}
