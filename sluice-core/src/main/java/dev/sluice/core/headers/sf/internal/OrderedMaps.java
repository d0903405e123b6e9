package dev.sluice.core.headers.sf.internal;

import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.function.BiConsumer;

/** Helpers for the insertion-ordered maps behind Parameters and Dictionaries. Internal. */
public final class OrderedMaps {
  private OrderedMaps() {}

  /** An unmodifiable, insertion-ordered copy, each entry checked by {@code check}. */
  public static <V> Map<String, V> copy(Map<String, ? extends V> source, BiConsumer<String, V> check) {
    Objects.requireNonNull(source, "map");
    Map<String, V> copy = new LinkedHashMap<>();
    source.forEach((k, v) -> {
      check.accept(k, v);
      copy.put(k, v);
    });
    return Collections.unmodifiableMap(copy);
  }

  /** Equality that also compares order, since order is part of a structured field's meaning. */
  public static boolean orderedEquals(Map<String, ?> a, Map<String, ?> b) {
    if (a.size() != b.size()) {
      return false;
    }
    Iterator<? extends Map.Entry<String, ?>> ia = a.entrySet().iterator();
    Iterator<? extends Map.Entry<String, ?>> ib = b.entrySet().iterator();
    while (ia.hasNext()) {
      Map.Entry<String, ?> ea = ia.next();
      Map.Entry<String, ?> eb = ib.next();
      if (!ea.getKey().equals(eb.getKey()) || !ea.getValue().equals(eb.getValue())) {
        return false;
      }
    }
    return true;
  }

  public static int orderedHash(Map<String, ?> m) {
    int h = 1;
    for (Map.Entry<String, ?> e : m.entrySet()) {
      h = 31 * h + e.getKey().hashCode();
      h = 31 * h + e.getValue().hashCode();
    }
    return h;
  }
}
