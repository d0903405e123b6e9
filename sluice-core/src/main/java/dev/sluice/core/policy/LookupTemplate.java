package dev.sluice.core.policy;

import dev.sluice.core.policy.internal.PathCodec;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The target of a reconciliation look-up, e.g. {@code /v1/transfers?idempotency_key={idempotency_key}}
 * or {@code /v1/operations/{operation_id}}: a path that may carry a query, with {@code {name}}
 * placeholders. Immutable and thread-safe.
 *
 * <p>In the path a placeholder fills a whole segment (as in {@link RouteTemplate}); in the query it
 * may appear anywhere. Which names are allowed depends on the route and provider and is checked by
 * the loader: {@code idempotency_key} (the provider has an {@code idempotency_header}), {@code
 * external_reference} (the route names one), {@code operation_id} (the route says where to find
 * it), and the route's own path parameters.
 */
public final class LookupTemplate {
  private final String template;
  /** Alternating literal text and placeholder names: even indices literal, odd placeholder. */
  private final List<String> parts;
  private final Set<String> placeholders;
  /** Index into parts where the query starts (the '?' is in the literal before it), or -1. */
  private final int queryPart;

  private LookupTemplate(String template, List<String> parts, Set<String> placeholders, int queryPart) {
    this.template = template;
    this.parts = List.copyOf(parts);
    this.placeholders = Set.copyOf(placeholders);
    this.queryPart = queryPart;
  }

  /**
   * Compiles a look-up template.
   *
   * @throws IllegalArgumentException saying what is wrong with it
   */
  public static LookupTemplate compile(String template) {
    Objects.requireNonNull(template, "template");
    if (template.isEmpty() || template.charAt(0) != '/') {
      throw new IllegalArgumentException("a look-up path must start with '/'");
    }
    if (template.indexOf('#') >= 0) {
      throw new IllegalArgumentException("a look-up path cannot contain '#'");
    }
    int q = template.indexOf('?');
    String path = q < 0 ? template : template.substring(0, q);
    List<String> parts = new ArrayList<>();
    Set<String> names = new LinkedHashSet<>();
    StringBuilder literal = new StringBuilder();
    List<String> segs = PathCodec.segments(path);
    for (int i = 0; i < segs.size(); i++) {
      String seg = segs.get(i);
      literal.append('/');
      if (seg.isEmpty() && i < segs.size() - 1) {
        throw new IllegalArgumentException("a look-up path cannot contain an empty segment ('//')");
      }
      Optional<String> name = RouteTemplate.parameterName(seg);
      if (name.isPresent()) {
        parts.add(literal.toString());
        literal.setLength(0);
        parts.add(name.get());
        names.add(name.get());
      } else {
        Optional<PathSafety.Refusal> bad = PathSafety.checkSegment(seg);
        if (bad.isPresent()) {
          throw new IllegalArgumentException(bad.get().message());
        }
        literal.append(seg);
      }
    }
    int queryPart = -1;
    if (q >= 0) {
      literal.append('?');
      queryPart = parts.size();
      String query = template.substring(q + 1);
      int i = 0;
      while (i < query.length()) {
        char c = query.charAt(i);
        if (c == '{') {
          int end = query.indexOf('}', i);
          if (end < 0) {
            throw new IllegalArgumentException("unclosed '{' in the look-up query");
          }
          String name = query.substring(i + 1, end);
          if (!RouteTemplate.PARAM_NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("placeholder name '" + name + "' must match " + RouteTemplate.PARAM_NAME.pattern());
          }
          parts.add(literal.toString());
          literal.setLength(0);
          parts.add(name);
          names.add(name);
          i = end + 1;
        } else if (c == '}') {
          throw new IllegalArgumentException("unmatched '}' in the look-up query");
        } else if (c == '%') {
          if (PathCodec.pctByte(query, i) < 0) {
            throw new IllegalArgumentException("malformed percent-encoding in the look-up query");
          }
          literal.append(query, i, i + 3);
          i += 3;
        } else if (c == '/' || c == '?' || PathCodec.isPlainPchar(c)) {
          literal.append(c);
          i++;
        } else {
          throw new IllegalArgumentException("character " + PathCodec.describeChar(c) + " is not allowed in a query; percent-encode it");
        }
      }
    }
    parts.add(literal.toString());
    return new LookupTemplate(template, parts, names, queryPart);
  }

  /** The placeholder names used, in no particular order. */
  public Set<String> placeholders() {
    return placeholders;
  }

  /**
   * Fills in the placeholders, percent-encoding each value (everything but unreserved characters),
   * so a value can never add a segment, a query parameter or a dot-segment.
   *
   * @throws IllegalArgumentException when a value is missing, or is empty, {@code .} or {@code ..}
   *     in a path position
   */
  public String expand(Map<String, String> values) {
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < parts.size(); i++) {
      if (i % 2 == 0) {
        b.append(parts.get(i));
        continue;
      }
      String name = parts.get(i);
      String value = values.get(name);
      if (value == null) {
        throw new IllegalArgumentException("no value for {" + name + "} in look-up " + template);
      }
      boolean inPath = queryPart < 0 || i < queryPart;
      if (inPath && value.isEmpty()) {
        throw new IllegalArgumentException("empty value for path placeholder {" + name + "} in look-up " + template);
      }
      String encoded = PathCodec.encode(value);
      if (inPath && (encoded.equals(".") || encoded.equals(".."))) {
        throw new IllegalArgumentException("value of path placeholder {" + name + "} would form a dot-segment");
      }
      b.append(encoded);
    }
    return b.toString();
  }

  /** The template as written. */
  public String template() {
    return template;
  }

  @Override
  public String toString() {
    return template;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof LookupTemplate t && t.template.equals(template);
  }

  @Override
  public int hashCode() {
    return template.hashCode();
  }
}
