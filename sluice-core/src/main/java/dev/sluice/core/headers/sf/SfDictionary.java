package dev.sluice.core.headers.sf;

import dev.sluice.core.headers.sf.internal.Grammar;
import dev.sluice.core.headers.sf.internal.OrderedMaps;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A Dictionary structured field (RFC 9651 §3.2): an ordered map from keys to items or inner
 * lists. Immutable; equality compares entries in order. An empty dictionary stands for an absent
 * field and serializes to the empty string. When parsing, a key seen twice keeps the position of
 * its first occurrence and the value of its last.
 */
public final class SfDictionary {
  private static final SfDictionary EMPTY = new SfDictionary(Map.of());

  private final Map<String, Member> map;

  private SfDictionary(Map<String, Member> map) {
    this.map = map;
  }

  public static SfDictionary empty() {
    return EMPTY;
  }

  /** A dictionary from an ordered map (iteration order is kept); keys must be valid. */
  public static SfDictionary of(Map<String, ? extends Member> map) {
    if (map.isEmpty()) {
      return EMPTY;
    }
    return new SfDictionary(OrderedMaps.copy(map, (k, v) -> {
      Grammar.requireKey(k, "dictionary key");
      Objects.requireNonNull(v, () -> "value of dictionary member " + k);
    }));
  }

  /** The member named {@code key}, if present. */
  public Optional<Member> get(String key) {
    return Optional.ofNullable(map.get(key));
  }

  public boolean isEmpty() {
    return map.isEmpty();
  }

  public int size() {
    return map.size();
  }

  /** The entries in order, unmodifiable. */
  public Map<String, Member> asMap() {
    return map;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof SfDictionary d && OrderedMaps.orderedEquals(map, d.map);
  }

  @Override
  public int hashCode() {
    return OrderedMaps.orderedHash(map);
  }

  @Override
  public String toString() {
    return "SfDictionary" + map;
  }
}
