package dev.sluice.core.policy.internal;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;
import org.yaml.snakeyaml.nodes.Tag;

/**
 * A node of the composed YAML document with its path, read with typed accessors that record a
 * problem (what was found, what was expected) and return empty instead of throwing. Every message
 * is phrased so the reader can fix the file from it alone.
 */
public final class YamlValue {
  private static final Pattern DECIMAL_INT = Pattern.compile("[-+]?(0|[1-9][0-9]*)");
  private static final Pattern DECIMAL_NUMBER = Pattern.compile("[-+]?([0-9]+(\\.[0-9]*)?|\\.[0-9]+)([eE][-+]?[0-9]+)?");
  /** Larger waits than this are surely a mistake (about 31 years). */
  private static final BigDecimal MAX_SECONDS = new BigDecimal("1000000000");

  private final Node node;
  private final String path;
  private final Problems problems;

  public YamlValue(Node node, String path, Problems problems) {
    this.node = node;
    this.path = path;
    this.problems = problems;
  }

  public Node node() {
    return node;
  }

  public String path() {
    return path;
  }

  public Problems problems() {
    return problems;
  }

  /** Records a problem at this node. */
  public void error(String message) {
    problems.at(node, path, message);
  }

  /** The value of a child path: {@code a.b}, or {@code b} at the top. */
  public static String child(String parent, String key) {
    return parent.isEmpty() ? key : parent + "." + key;
  }

  /** Whether the node is an explicit null ({@code key:} with nothing, or {@code ~}). */
  public boolean isNull() {
    return node instanceof ScalarNode s && s.getTag().equals(Tag.NULL);
  }

  /** The line of this node, 1-based. */
  public int line() {
    return node.getStartMark() == null ? 0 : node.getStartMark().getLine() + 1;
  }

  /**
   * This node as a mapping.
   *
   * @param knownKeys the keys allowed, or null to accept any key (maps keyed by id)
   * @param hints for keys that belong elsewhere: key to where it belongs
   * @param expected what a mapping here means, for the message when something else was found
   */
  public Optional<YamlMapping> mapping(Collection<String> knownKeys, Map<String, String> hints, String expected) {
    if (!(node instanceof MappingNode m)) {
      error("found " + describe() + ", expected " + expected);
      return Optional.empty();
    }
    Map<String, YamlMapping.Entry> entries = new LinkedHashMap<>();
    java.util.Set<String> misspelt = new java.util.HashSet<>();
    for (NodeTuple t : m.getValue()) {
      Node k = t.getKeyNode();
      if (!(k instanceof ScalarNode ks) || ks.getTag().equals(Tag.NULL)) {
        problems.at(k, path, "found " + describe(k, false) + " as a key, expected a plain name");
        continue;
      }
      String key = ks.getValue();
      String keyPath = child(path, key);
      YamlMapping.Entry previous = entries.get(key);
      if (previous != null) {
        problems.at(k, keyPath, "duplicate key '" + key + "' (first at line " + (previous.key().getStartMark().getLine() + 1)
            + "); YAML would silently keep only one of them");
        continue;
      }
      if (knownKeys != null && !knownKeys.contains(key)) {
        String where = hints == null ? null : hints.get(key);
        Optional<String> close = where != null ? Optional.empty() : Suggest.closest(key, knownKeys);
        close.ifPresent(misspelt::add);
        String help = where != null
            ? "; '" + key + "' belongs under '" + where + "'"
            : close.map(c -> "; did you mean '" + c + "'?").orElse("; expected one of: " + String.join(", ", knownKeys));
        problems.at(k, keyPath, "unknown key '" + key + "'" + help);
        continue;
      }
      entries.put(key, new YamlMapping.Entry(k, new YamlValue(t.getValueNode(), keyPath, problems)));
    }
    return Optional.of(new YamlMapping(this, entries, misspelt));
  }

  /** This node as a list of values (paths {@code p[0]}, {@code p[1]}, ...). */
  public Optional<List<YamlValue>> list(String expected) {
    if (!(node instanceof SequenceNode s)) {
      error("found " + describe() + ", expected " + expected);
      return Optional.empty();
    }
    List<YamlValue> out = new ArrayList<>();
    List<Node> items = s.getValue();
    for (int i = 0; i < items.size(); i++) {
      out.add(new YamlValue(items.get(i), path + "[" + i + "]", problems));
    }
    return Optional.of(out);
  }

  /** A string: a quoted scalar, or a plain one that YAML does not read as a number, boolean or null. */
  public Optional<String> string(String expected) {
    if (node instanceof ScalarNode s && s.getTag().equals(Tag.STR)) {
      return Optional.of(s.getValue());
    }
    String hint = node instanceof ScalarNode s && !s.getTag().equals(Tag.NULL) ? " (put it in quotes if you mean the text)" : "";
    error("found " + describe() + ", expected " + expected + hint);
    return Optional.empty();
  }

  /**
   * A string that may be a secret, or near one: never echoed in any message. Used for secret
   * references, credential formats and store URLs.
   */
  public Optional<String> secretString(String expected) {
    if (node instanceof ScalarNode s && s.getTag().equals(Tag.STR)) {
      return Optional.of(s.getValue());
    }
    error("found " + describe(node, true) + ", expected " + expected);
    return Optional.empty();
  }

  /** A decimal integer in [min, max]; {@code constraint} phrases the range for the message. */
  public Optional<Integer> integer(long min, long max, String constraint) {
    if (node instanceof ScalarNode s && s.getTag().equals(Tag.INT)) {
      String text = s.getValue();
      if (!DECIMAL_INT.matcher(text).matches()) {
        error("found '" + text + "', expected a plain decimal integer (" + constraint + ")");
        return Optional.empty();
      }
      BigDecimal v = new BigDecimal(text);
      if (v.compareTo(BigDecimal.valueOf(min)) < 0 || v.compareTo(BigDecimal.valueOf(max)) > 0) {
        error("found " + text + ", expected " + constraint);
        return Optional.empty();
      }
      return Optional.of(v.intValueExact());
    }
    error("found " + describe() + ", expected a whole number (" + constraint + ")" + quotedNumberHint());
    return Optional.empty();
  }

  /** A number (integer or decimal, not infinite or NaN). */
  public Optional<BigDecimal> number(String constraint) {
    if (node instanceof ScalarNode s && (s.getTag().equals(Tag.INT) || s.getTag().equals(Tag.FLOAT))) {
      String text = s.getValue();
      if (!DECIMAL_NUMBER.matcher(text).matches()) {
        error("found '" + text + "', expected a plain decimal number (" + constraint + ")");
        return Optional.empty();
      }
      return Optional.of(new BigDecimal(text));
    }
    error("found " + describe() + ", expected a number (" + constraint + ")" + quotedNumberHint());
    return Optional.empty();
  }

  /** A number of seconds, more than zero (or at least zero when {@code zeroAllowed}). */
  public Optional<Duration> seconds(boolean zeroAllowed) {
    String constraint = zeroAllowed ? "seconds, zero or more" : "seconds, more than 0";
    Optional<BigDecimal> n = number(constraint);
    if (n.isEmpty()) {
      return Optional.empty();
    }
    BigDecimal v = n.get();
    if (v.signum() < 0 || (!zeroAllowed && v.signum() == 0)) {
      error("found " + v.toPlainString() + ", expected " + constraint);
      return Optional.empty();
    }
    if (v.compareTo(MAX_SECONDS) > 0) {
      error("found " + v.toPlainString() + " seconds, expected at most " + MAX_SECONDS.toPlainString());
      return Optional.empty();
    }
    long nanos = v.movePointRight(9).setScale(0, java.math.RoundingMode.HALF_UP).longValueExact();
    return Optional.of(Duration.ofNanos(nanos));
  }

  /** A boolean ({@code true}/{@code false}). */
  public Optional<Boolean> bool() {
    if (node instanceof ScalarNode s && s.getTag().equals(Tag.BOOL)) {
      String t = s.getValue().toLowerCase(java.util.Locale.ROOT);
      return Optional.of(t.equals("true") || t.equals("yes") || t.equals("on") || t.equals("y"));
    }
    error("found " + describe() + ", expected true or false");
    return Optional.empty();
  }

  /** One of a fixed set of names, with a did-you-mean when close. */
  public <E> Optional<E> choice(Map<String, E> choices) {
    String names = String.join(", ", choices.keySet());
    if (!(node instanceof ScalarNode s) || s.getTag().equals(Tag.NULL)) {
      error("found " + describe() + ", expected one of: " + names);
      return Optional.empty();
    }
    E v = choices.get(s.getValue());
    if (v == null) {
      String suggestion = Suggest.closest(s.getValue(), choices.keySet()).map(c -> "; did you mean '" + c + "'?").orElse("");
      error("found " + describe() + ", expected one of: " + names + suggestion);
      return Optional.empty();
    }
    return Optional.of(v);
  }

  /** The scalar's value as a JSON-comparable object: String, BigDecimal or Boolean. */
  public Optional<Object> scalarValue(String expected) {
    if (node instanceof ScalarNode s) {
      Tag t = s.getTag();
      if (t.equals(Tag.STR)) {
        return Optional.of(s.getValue());
      }
      if (t.equals(Tag.BOOL)) {
        return bool().map(b -> b);
      }
      if (t.equals(Tag.INT) || t.equals(Tag.FLOAT)) {
        return number("a value to compare with").map(b -> b);
      }
    }
    error("found " + describe() + ", expected " + expected);
    return Optional.empty();
  }

  /** What the node is, for "found ..." messages; scalars are quoted and shortened. */
  public String describe() {
    return describe(node, false);
  }

  private String quotedNumberHint() {
    if (node instanceof ScalarNode s && s.getTag().equals(Tag.STR) && DECIMAL_NUMBER.matcher(s.getValue().strip()).matches()) {
      return "; remove the quotes";
    }
    return "";
  }

  /**
   * Describes a node. With {@code redact} the value of a scalar is never shown, only its kind: the
   * value may be a secret pasted into the wrong place.
   */
  public static String describe(Node n, boolean redact) {
    if (n instanceof MappingNode) {
      return "a mapping";
    }
    if (n instanceof SequenceNode) {
      return "a list";
    }
    if (n instanceof ScalarNode s) {
      Tag t = s.getTag();
      String v = s.getValue();
      if (t.equals(Tag.NULL)) {
        return "an empty value";
      }
      String shown = redact ? "" : " " + quote(v);
      if (t.equals(Tag.INT) || t.equals(Tag.FLOAT)) {
        return redact ? "a number" : "the number " + shorten(v);
      }
      if (t.equals(Tag.BOOL)) {
        return "the boolean " + shorten(v);
      }
      if (t.equals(Tag.STR)) {
        return redact ? "a string (not shown)" : "the string" + shown;
      }
      return "a value with tag " + t.getValue() + shown;
    }
    return "nothing";
  }

  private static String quote(String v) {
    return "'" + shorten(v) + "'";
  }

  private static String shorten(String v) {
    StringBuilder b = new StringBuilder();
    int max = 60;
    for (int i = 0; i < v.length() && b.length() < max; i++) {
      char c = v.charAt(i);
      if (c < 0x20 || c == 0x7f) {
        b.append(String.format("\\u%04x", (int) c));
      } else {
        b.append(c);
      }
    }
    if (v.length() > max) {
      b.append("...");
    }
    return b.toString();
  }
}
