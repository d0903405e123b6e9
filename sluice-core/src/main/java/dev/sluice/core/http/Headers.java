package dev.sluice.core.http;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * An immutable, case-insensitive, multi-valued view of HTTP header fields.
 *
 * <p>Field names are compared ignoring ASCII case (RFC 9110 §5.1). Each name keeps its field
 * lines in arrival order; {@link #combined(String)} joins them with {@code ", "} as RFC 9110 §5.3
 * allows for list-based fields such as {@code RateLimit}. Insertion order of names is kept for
 * display.
 */
public final class Headers {
  private static final Headers EMPTY = new Headers(Map.of());

  /** Lower-case name to the field lines, in order. */
  private final Map<String, List<String>> fields;

  private Headers(Map<String, List<String>> fields) {
    this.fields = fields;
  }

  /** No header fields. */
  public static Headers empty() {
    return EMPTY;
  }

  /** Headers from alternating name, value pairs: {@code Headers.of("Retry-After", "10")}. */
  public static Headers of(String... namesAndValues) {
    if (namesAndValues.length % 2 != 0) {
      throw new IllegalArgumentException("Headers.of needs name/value pairs, got an odd count: " + namesAndValues.length);
    }
    Builder b = builder();
    for (int i = 0; i < namesAndValues.length; i += 2) {
      b.add(namesAndValues[i], namesAndValues[i + 1]);
    }
    return b.build();
  }

  /** Headers from a map of names to field lines, e.g. {@code java.net.http.HttpHeaders#map()}. */
  public static Headers of(Map<String, ? extends List<String>> map) {
    Builder b = builder();
    map.forEach((name, values) -> values.forEach(v -> b.add(name, v)));
    return b.build();
  }

  public static Builder builder() {
    return new Builder();
  }

  /** The first field line for {@code name}, if any. */
  public Optional<String> first(String name) {
    List<String> values = fields.get(key(name));
    return values == null || values.isEmpty() ? Optional.empty() : Optional.of(values.get(0));
  }

  /** Every field line for {@code name}, in order; empty when absent. */
  public List<String> all(String name) {
    List<String> values = fields.get(key(name));
    return values == null ? List.of() : values;
  }

  /** All field lines for {@code name} joined with {@code ", "}; empty when absent. */
  public Optional<String> combined(String name) {
    List<String> values = fields.get(key(name));
    return values == null || values.isEmpty() ? Optional.empty() : Optional.of(String.join(", ", values));
  }

  public boolean contains(String name) {
    return fields.containsKey(key(name));
  }

  /** The lower-case names present, in insertion order. */
  public Set<String> names() {
    return fields.keySet();
  }

  public boolean isEmpty() {
    return fields.isEmpty();
  }

  /** Lower-case name to field lines, unmodifiable. */
  public Map<String, List<String>> asMap() {
    return fields;
  }

  private static String key(String name) {
    return Objects.requireNonNull(name, "header name").toLowerCase(Locale.ROOT);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Headers h && h.fields.equals(fields);
  }

  @Override
  public int hashCode() {
    return fields.hashCode();
  }

  /**
   * The field names only: request headers carry the agent's token and, past the transport, the
   * provider credential, and a toString ends up in logs and assertion messages (DESIGN.md §6).
   */
  @Override
  public String toString() {
    return "Headers" + fields.keySet();
  }

  /** Collects field lines; names are case-insensitive. */
  public static final class Builder {
    private final Map<String, List<String>> fields = new LinkedHashMap<>();

    private Builder() {}

    public Builder add(String name, String value) {
      Objects.requireNonNull(value, () -> "value of header " + name);
      fields.computeIfAbsent(key(name), k -> new ArrayList<>()).add(value);
      return this;
    }

    public Headers build() {
      if (fields.isEmpty()) {
        return EMPTY;
      }
      Map<String, List<String>> copy = new LinkedHashMap<>();
      fields.forEach((k, v) -> copy.put(k, List.copyOf(v)));
      return new Headers(Collections.unmodifiableMap(copy));
    }
  }
}
