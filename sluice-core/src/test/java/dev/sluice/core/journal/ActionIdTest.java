package dev.sluice.core.journal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ActionIdTest {
  static final Instant T = Instant.parse("2026-11-30T10:00:00Z");

  @Test
  void idsAreUlidsWhoseFirstTenCharactersEncodeTheMillisecond() {
    ActionId id = ActionId.newId(T);

    assertThat(id.value()).matches("[0-7][0-9A-HJKMNP-TV-Z]{25}");
    long millis = 0;
    for (char c : id.value().substring(0, 10).toCharArray()) {
      millis = millis * 32 + "0123456789ABCDEFGHJKMNPQRSTVWXYZ".indexOf(c);
    }
    assertThat(millis).isEqualTo(T.toEpochMilli());
  }

  @Test
  void idsOfOneMillisecondDifferAndLaterMillisecondsSortAfter() {
    Set<ActionId> same = new HashSet<>();
    for (int i = 0; i < 1000; i++) {
      same.add(ActionId.newId(T));
    }

    assertThat(same).hasSize(1000);
    assertThat(ActionId.newId(T.plusMillis(1))).isGreaterThan(same.stream().max(ActionId::compareTo).orElseThrow());
  }

  @Test
  void anythingButACanonicalUlidIsRefusedWithoutEchoingControlCharacters() {
    assertThat(ActionId.of("01ARZ3NDEKTSV4RRFFQ69G5FAV").value()).isEqualTo("01ARZ3NDEKTSV4RRFFQ69G5FAV");
    assertThatThrownBy(() -> ActionId.of("01arz3ndektsv4rrffq69g5fav")).hasMessageContaining("26-character ULID");
    assertThatThrownBy(() -> ActionId.of("81ARZ3NDEKTSV4RRFFQ69G5FAV")).as("overflows 48 bits").hasMessageContaining("ULID");
    assertThatThrownBy(() -> ActionId.of("01ARZ3NDEKTSV4RRFFQ69G5FAI")).as("I is not Crockford").hasMessageContaining("ULID");
    assertThatThrownBy(() -> ActionId.of("42")).hasMessageContaining("ULID");
    assertThatThrownBy(() -> ActionId.of("x\ny")).hasMessageNotContaining("\n");
    assertThatThrownBy(() -> ActionId.newId(Instant.EPOCH.minusMillis(1))).hasMessageContaining("1970");
  }
}
