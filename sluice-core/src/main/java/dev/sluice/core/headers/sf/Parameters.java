package dev.sluice.core.headers.sf;

import dev.sluice.core.headers.sf.internal.Grammar;
import dev.sluice.core.headers.sf.internal.OrderedMaps;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The Parameters of an {@link Item} or {@link InnerList} (RFC 9651 §3.1.2): an ordered map from
 * keys to bare items. Immutable; equality compares entries in order. Keys are checked on
 * construction; a key given twice keeps its first position with the last value, as parsing does.
 */
public final class Parameters {
  private static final Parameters EMPTY = new Parameters(Map.of());

  private final Map<String, BareItem> map;

  private Parameters(Map<String, BareItem> map) {
    this.map = map;
  }

  /** No parameters. */
  public static Parameters empty() {
    return EMPTY;
  }

  /** Parameters from an ordered map (iteration order is kept); keys must be valid. */
  public static Parameters of(Map<String, ? extends BareItem> map) {
    if (map.isEmpty()) {
      return EMPTY;
    }
    return new Parameters(OrderedMaps.copy(map, (k, v) -> {
      Grammar.requireKey(k, "parameter key");
      Objects.requireNonNull(v, () -> "value of parameter " + k);
    }));
  }

  /** Parameters from alternating key, value pairs. */
  public static Parameters of(Object... keysAndValues) {
    if (keysAndValues.length % 2 != 0) {
      throw new IllegalArgumentException("Parameters.of needs key/value pairs, got an odd count: " + keysAndValues.length);
    }
    Map<String, BareItem> m = new LinkedHashMap<>();
    for (int i = 0; i < keysAndValues.length; i += 2) {
      if (!(keysAndValues[i] instanceof String k) || !(keysAndValues[i + 1] instanceof BareItem v)) {
        throw new IllegalArgumentException("Parameters.of expects String keys and BareItem values, at pair " + i / 2);
      }
      m.put(k, v);
    }
    return of(m);
  }

  /** The value of {@code key}, if present. */
  public Optional<BareItem> get(String key) {
    return Optional.ofNullable(map.get(key));
  }

  public boolean containsKey(String key) {
    return map.containsKey(key);
  }

  public boolean isEmpty() {
    return map.isEmpty();
  }

  public int size() {
    return map.size();
  }

  /** The entries in order, unmodifiable. */
  public Map<String, BareItem> asMap() {
    return map;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Parameters p && OrderedMaps.orderedEquals(map, p.map);
  }

  @Override
  public int hashCode() {
    return OrderedMaps.orderedHash(map);
  }

  @Override
  public String toString() {
    return "Parameters" + map;
  }
}
