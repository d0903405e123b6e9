package dev.sluice.core.policy.internal;

import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.yaml.snakeyaml.nodes.Node;

/** A mapping whose unknown and duplicate keys have already been reported. */
public final class YamlMapping {
  /** One key with its value. */
  public record Entry(Node key, YamlValue value) {}

  private final YamlValue self;
  private final Map<String, Entry> entries;
  /** Known keys that an unknown key was reported as a likely misspelling of. */
  private final Set<String> misspelt;

  YamlMapping(YamlValue self, Map<String, Entry> entries, Set<String> misspelt) {
    this.self = self;
    this.entries = entries;
    this.misspelt = misspelt;
  }

  /** Whether an unknown key here was reported as a likely misspelling of this key. */
  public boolean misspelt(String key) {
    return misspelt.contains(key);
  }

  public YamlValue self() {
    return self;
  }

  /** The known keys present, in document order. */
  public Set<String> keys() {
    return entries.keySet();
  }

  public Map<String, Entry> entries() {
    return entries;
  }

  /** Whether the key is present (even with an empty value). */
  public boolean has(String key) {
    return entries.containsKey(key);
  }

  /** The key's node, for problems about the key itself. */
  public Node keyNode(String key) {
    Entry e = entries.get(key);
    return e == null ? self.node() : e.key();
  }

  /** The value of an optional key; absent or empty ({@code key:} with nothing) gives empty. */
  public Optional<YamlValue> optional(String key) {
    Entry e = entries.get(key);
    if (e == null || e.value().isNull()) {
      return Optional.empty();
    }
    return Optional.of(e.value());
  }

  /**
   * The value of a required key; when it is missing or empty a problem is recorded saying what
   * belongs there, with the key's path and the position of the mapping (or of the empty value).
   * When an unknown key was already reported as a misspelling of this one, nothing more is said.
   */
  public Optional<YamlValue> required(String key, String expected) {
    Entry e = entries.get(key);
    if (e == null && misspelt.contains(key)) {
      return Optional.empty(); // already reported as "unknown key ...; did you mean '<key>'?"
    }
    if (e == null) {
      self.problems().at(self.node(), YamlValue.child(self.path(), key), "missing required key '" + key + "'; expected " + expected);
      return Optional.empty();
    }
    if (e.value().isNull()) {
      e.value().error("found an empty value, expected " + expected);
      return Optional.empty();
    }
    return Optional.of(e.value());
  }
}
