package dev.sluice.core.headers.sf;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/** Properties of the parser and serializer over arbitrary input. */
class StructuredFieldsPropertiesTest {

  /** Characters that drive the parser into every branch, so random strings get past the first byte. */
  private static final String SF_CHARS = " \t,;=()\"\\:?@%*-./0123456789abcdefxyzAZ!#'+_|~";

  @Property(tries = 2000)
  void parsingArbitraryTextNeverThrowsAnythingButStructuredFieldException(@ForAll("fieldValues") String value) {
    for (String type : List.of("item", "list", "dictionary")) {
      try {
        StructuredFieldVectorsTest.parse(type, value);
      } catch (StructuredFieldException expected) {
        // the one permitted failure
      }
    }
  }

  @Property(tries = 2000)
  void whateverParsesSerialisesToAFormThatParsesBackEqual(@ForAll("fieldValues") String value) {
    for (String type : List.of("item", "list", "dictionary")) {
      Object parsed;
      try {
        parsed = StructuredFieldVectorsTest.parse(type, value);
      } catch (StructuredFieldException e) {
        continue;
      }
      String canonical = StructuredFieldVectorsTest.serialize(parsed);
      Object reparsed;
      try {
        reparsed = StructuredFieldVectorsTest.parse(type, canonical);
      } catch (StructuredFieldException e) {
        throw new AssertionError(type + " '" + value + "' parsed, but its serialisation '" + canonical + "' did not: " + e.getMessage());
      }
      assertThat(reparsed).isEqualTo(parsed);
      assertThat(StructuredFieldVectorsTest.serialize(reparsed)).isEqualTo(canonical);
    }
  }

  @Property(tries = 1000)
  void everyConstructibleListSurvivesASerialiseParseRoundTrip(@ForAll("lists") SfList list) throws Exception {
    assertThat(StructuredFields.parseList(StructuredFields.serialize(list))).isEqualTo(list);
  }

  @Property(tries = 1000)
  void everyConstructibleDictionarySurvivesASerialiseParseRoundTrip(@ForAll("dictionaries") SfDictionary dict) throws Exception {
    assertThat(StructuredFields.parseDictionary(StructuredFields.serialize(dict))).isEqualTo(dict);
  }

  @Provide
  Arbitrary<String> fieldValues() {
    return Arbitraries.oneOf(
        Arbitraries.strings().withChars(SF_CHARS).ofMaxLength(40),
        Arbitraries.strings().ofMaxLength(30),
        model().map(StructuredFieldVectorsTest::serialize).flatMap(s -> mutate(s)));
  }

  /** A valid serialisation, sometimes with one character dropped, doubled or replaced. */
  private Arbitrary<String> mutate(String s) {
    if (s.isEmpty()) {
      return Arbitraries.just(s);
    }
    return Arbitraries.integers().between(0, s.length() - 1).flatMap(i -> Arbitraries.oneOf(
        Arbitraries.just(s),
        Arbitraries.just(s.substring(0, i) + s.substring(i + 1)),
        Arbitraries.just(s.substring(0, i) + s.charAt(i) + s.substring(i)),
        Arbitraries.chars().with(SF_CHARS.toCharArray()).map(c -> s.substring(0, i) + c + s.substring(i + 1))));
  }

  private Arbitrary<Object> model() {
    return Arbitraries.oneOf(items().map(i -> (Object) i), lists().map(l -> (Object) l), dictionaries().map(d -> (Object) d));
  }

  @Provide
  Arbitrary<SfList> lists() {
    return members().list().ofMaxSize(4).map(SfList::new);
  }

  @Provide
  Arbitrary<SfDictionary> dictionaries() {
    return Combinators.combine(keys(), members()).as(Map::entry).list().ofMaxSize(4).map(entries -> {
      Map<String, Member> m = new LinkedHashMap<>();
      entries.forEach(e -> m.put(e.getKey(), e.getValue()));
      return SfDictionary.of(m);
    });
  }

  private Arbitrary<Member> members() {
    Arbitrary<Member> inner = Combinators.combine(items().list().ofMaxSize(3), parameters()).as(InnerList::new);
    return Arbitraries.oneOf(items().map(i -> (Member) i), inner);
  }

  private Arbitrary<Item> items() {
    return Combinators.combine(bareItems(), parameters()).as(Item::new);
  }

  private Arbitrary<Parameters> parameters() {
    return Combinators.combine(keys(), bareItems()).as(Map::entry).list().ofMaxSize(3).map(entries -> {
      Map<String, BareItem> m = new LinkedHashMap<>();
      entries.forEach(e -> m.put(e.getKey(), e.getValue()));
      return Parameters.of(m);
    });
  }

  private Arbitrary<String> keys() {
    return Combinators.combine(
            Arbitraries.chars().range('a', 'z').with('*'),
            Arbitraries.strings().withCharRange('a', 'z').withChars("0123456789_-.*").ofMaxLength(6))
        .as((first, rest) -> first + rest);
  }

  private Arbitrary<BareItem> bareItems() {
    long max = 999_999_999_999_999L;
    return Arbitraries.oneOf(
        Arbitraries.longs().between(-max, max).map(SfInteger::new),
        Arbitraries.longs().between(-999_999_999_999_999L, 999_999_999_999_999L).map(n -> new SfDecimal(BigDecimal.valueOf(n, 3))),
        Arbitraries.strings().withCharRange(' ', '~').ofMaxLength(12).map(SfString::new),
        Combinators.combine(Arbitraries.chars().alpha().with('*'), Arbitraries.strings().withChars("abcXYZ019!#$%&'*+-.^_`|~:/").ofMaxLength(8))
            .as((f, r) -> (BareItem) new SfToken(f + r)),
        Arbitraries.bytes().array(byte[].class).ofMaxSize(12).map(SfBinary::new),
        Arbitraries.of(true, false).map(SfBoolean::of),
        Arbitraries.longs().between(-max, max).map(SfDate::new),
        Arbitraries.strings().ofMaxLength(10).filter(StructuredFieldsPropertiesTest::wellFormed).map(SfDisplayString::new));
  }

  private static boolean wellFormed(String s) {
    try {
      new SfDisplayString(s);
      return true;
    } catch (IllegalArgumentException e) {
      return false;
    }
  }
}
