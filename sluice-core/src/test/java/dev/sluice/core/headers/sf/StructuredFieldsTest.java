package dev.sluice.core.headers.sf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/** Behaviour of the public API beyond what the conformance vectors check. */
class StructuredFieldsTest {

  @Nested
  class FailuresSayWhereAndWhy {
    @Test
    void aDecimalWithFourFractionalDigitsFailsAtItsDot() {
      StructuredFieldException e = catchThrowableOfType(StructuredFieldException.class, () -> StructuredFields.parseItem("12.3456"));
      assertThat(e.position()).isEqualTo(2);
      assertThat(e.reason()).contains("more than 3 fractional digits");
      assertThat(e.getMessage()).isEqualTo(e.reason() + " at position 2");
    }

    @Test
    void aTrailingCommaInAListFailsAtTheEnd() {
      StructuredFieldException e = catchThrowableOfType(StructuredFieldException.class, () -> StructuredFields.parseList("a, b, "));
      assertThat(e.position()).isEqualTo(6);
      assertThat(e.reason()).isEqualTo("trailing comma");
    }

    @Test
    void nonAsciiAnywhereFailsTheWholeFieldAtThatCharacter() {
      StructuredFieldException e = catchThrowableOfType(StructuredFieldException.class, () -> StructuredFields.parseList("a, \"café\""));
      assertThat(e.position()).isEqualTo(7);
      assertThat(e.reason()).isEqualTo("non-ASCII character");
    }

    @Test
    void theMessageNeverRepeatsTheFieldValue() {
      StructuredFieldException e = catchThrowableOfType(StructuredFieldException.class,
          () -> StructuredFields.parseDictionary("token=\"s3cr3t-value"));
      assertThat(e.getMessage()).doesNotContain("s3cr3t");
    }

    @Test
    void nullIsAParseFailureNotANullPointerException() {
      assertThatThrownBy(() -> StructuredFields.parseList(null)).isInstanceOf(StructuredFieldException.class);
    }

    @Test
    void leadingTabIsNotDiscardedOnlySpaceIs() throws Exception {
      assertThat(StructuredFields.parseItem("   1   ")).isEqualTo(Item.of(SfInteger.of(1)));
      assertThatThrownBy(() -> StructuredFields.parseItem("\t1")).isInstanceOf(StructuredFieldException.class);
    }
  }

  @Nested
  class Parsing {
    @Test
    void aDuplicateDictionaryKeyKeepsItsFirstPositionAndItsLastValue() throws Exception {
      SfDictionary d = StructuredFields.parseDictionary("a=1, b=2, a=3");
      assertThat(d.asMap().keySet()).containsExactly("a", "b");
      assertThat(d.get("a")).contains(Item.of(SfInteger.of(3)));
      assertThat(StructuredFields.serialize(d)).isEqualTo("a=3, b=2");
    }

    @Test
    void aDuplicateParameterKeyKeepsItsFirstPositionAndItsLastValue() throws Exception {
      Item item = StructuredFields.parseItem("x;q=1;w=2;q=3");
      assertThat(item.parameters().asMap().keySet()).containsExactly("q", "w");
      assertThat(item.parameters().get("q")).contains(SfInteger.of(3));
    }

    @Test
    void fieldLinesJoinedWithCommaParseAsOneList() throws Exception {
      String joined = String.join(", ", List.of("\"a\";r=1", "\"b\";r=2"));
      SfList list = StructuredFields.parseList(joined);
      assertThat(list.members()).containsExactly(
          new Item(SfString.of("a"), Parameters.of("r", SfInteger.of(1))),
          new Item(SfString.of("b"), Parameters.of("r", SfInteger.of(2))));
    }

    @Test
    void everyBareItemTypeIsRecognised() throws Exception {
      SfList list = StructuredFields.parseList("1, 1.5, \"s\", tok, :AQID:, ?0, @1700000000, %\"%f0%9f%8c%8a\", (1 2);p");
      assertThat(list.members()).containsExactly(
          Item.of(SfInteger.of(1)),
          Item.of(SfDecimal.of("1.5")),
          Item.of(SfString.of("s")),
          Item.of(SfToken.of("tok")),
          Item.of(SfBinary.of(new byte[] {1, 2, 3})),
          Item.of(SfBoolean.FALSE),
          Item.of(SfDate.of(1_700_000_000L)),
          Item.of(SfDisplayString.of("\uD83C\uDF0A")),
          new InnerList(List.of(Item.of(SfInteger.of(1)), Item.of(SfInteger.of(2))), Parameters.of("p", SfBoolean.TRUE)));
    }

    @Test
    void anEmptyListOrDictionaryIsTheAbsentFieldAndSerialisesToNothing() throws Exception {
      assertThat(StructuredFields.parseList("   ").isEmpty()).isTrue();
      assertThat(StructuredFields.parseDictionary("").isEmpty()).isTrue();
      assertThat(StructuredFields.serialize(new SfList(List.of()))).isEmpty();
    }
  }

  @Nested
  class Values {
    @Test
    void binaryContentCannotBeChangedFromOutside() {
      byte[] in = {1, 2, 3};
      SfBinary b = SfBinary.of(in);
      in[0] = 9;
      b.value()[1] = 9;
      assertThat(b.value()).containsExactly(1, 2, 3);
      assertThat(b).isEqualTo(SfBinary.of(new byte[] {1, 2, 3})).hasSameHashCodeAs(SfBinary.of(new byte[] {1, 2, 3}));
    }

    @Test
    void decimalsAreNormalisedToThreeDigitsHalfEven() {
      assertThat(SfDecimal.of("1.5")).isEqualTo(SfDecimal.of("1.500"));
      assertThat(SfDecimal.of("0.0025").value()).isEqualByComparingTo("0.002");
      assertThat(StructuredFields.serialize(Item.of(SfDecimal.of("9.9995")))).isEqualTo("10.0");
      assertThat(StructuredFields.serialize(Item.of(new SfDecimal(new BigDecimal("-0.0"))))).isEqualTo("0.0");
    }

    @Test
    void valuesThatCannotBeSerialisedAreRefusedOnConstruction() {
      assertThatThrownBy(() -> SfInteger.of(1_000_000_000_000_000L)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("15 digits");
      assertThatThrownBy(() -> SfDate.of(-1_000_000_000_000_000L)).isInstanceOf(IllegalArgumentException.class);
      assertThatThrownBy(() -> SfDecimal.of("999999999999.9996")).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("12 integer digits");
      assertThatThrownBy(() -> SfString.of("line\nbreak")).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("index 4");
      assertThatThrownBy(() -> SfToken.of("1abc")).isInstanceOf(IllegalArgumentException.class);
      assertThatThrownBy(() -> SfDisplayString.of("\uD800x")).isInstanceOf(IllegalArgumentException.class);
      assertThatThrownBy(() -> Parameters.of("Q", SfInteger.of(1))).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("parameter key 'Q'");
      Map<String, Member> m = new LinkedHashMap<>();
      m.put("a b", Item.of(SfBoolean.TRUE));
      assertThatThrownBy(() -> SfDictionary.of(m)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("dictionary key");
    }

    @Test
    void orderIsPartOfEquality() {
      Parameters ab = Parameters.of("a", SfBoolean.TRUE, "b", SfBoolean.TRUE);
      Parameters ba = Parameters.of("b", SfBoolean.TRUE, "a", SfBoolean.TRUE);
      assertThat(ab).isNotEqualTo(ba);
      assertThat(ab).isEqualTo(Parameters.of("a", SfBoolean.TRUE, "b", SfBoolean.TRUE));
    }
  }

  @Nested
  class Serialising {
    @Test
    void trueIsImplicitForParametersAndDictionaryMembers() {
      Map<String, Member> m = new LinkedHashMap<>();
      m.put("a", new Item(SfBoolean.TRUE, Parameters.of("x", SfBoolean.TRUE, "y", SfBoolean.FALSE)));
      m.put("b", Item.of(SfBoolean.FALSE));
      assertThat(StructuredFields.serialize(SfDictionary.of(m))).isEqualTo("a;x;y=?0, b=?0");
    }

    @Test
    void stringsEscapeQuoteAndBackslashOnly() {
      assertThat(StructuredFields.serialize(Item.of(SfString.of("a\"b\\c'd")))).isEqualTo("\"a\\\"b\\\\c'd\"");
    }

    @Test
    void displayStringsPercentEncodeUtf8InLowerCase() {
      assertThat(StructuredFields.serialize(Item.of(SfDisplayString.of("füü 100% \"x\""))))
          .isEqualTo("%\"f%c3%bc%c3%bc 100%25 %22x%22\"");
    }
  }
}
