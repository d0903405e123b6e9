package dev.sluice.core.policy;

import dev.sluice.core.policy.internal.PathCodec;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * A compiled route path such as {@code /v1/invoices/{id}}: compiled once at load, matched against
 * every request path. Immutable and thread-safe.
 *
 * <h2>Template syntax</h2>
 *
 * A template starts with {@code /}; its segments are literals or parameters. A parameter {@code
 * {name}} fills a whole segment; names match {@code [a-z_][a-z0-9_]*} and appear once. No query
 * ({@code ?}), no fragment, no empty segment ({@code //}) except a single trailing slash, no {@code
 * .} or {@code ..} segment, no encoded slash or backslash. Literals may be percent-encoded.
 *
 * <h2>Matching rule</h2>
 *
 * <ol>
 *   <li>The query string is split off first and plays no part in matching.
 *   <li>The raw path must pass {@link PathSafety#check}; an unsafe path matches nothing (the gateway
 *       refuses it with the reason from {@link #unsafePath}).
 *   <li>The raw path is split on {@code /} <em>before</em> any percent-decoding, so {@code %2F}
 *       never acts as a separator (and is refused anyway).
 *   <li>The path must have exactly as many segments as the template. A trailing slash is a
 *       segment: {@code /v1/x/} does not match {@code /v1/x}, and {@code /v1/x} does not match
 *       {@code /v1/x/}.
 *   <li>A literal segment matches when both are equal, case-sensitively, after decoding
 *       percent-encoded <em>unreserved</em> characters ({@code %7E} = {@code ~}, {@code %61} =
 *       {@code a}) and upper-casing the hex digits of every other percent-encoding ({@code %3a} =
 *       {@code %3A}); nothing else is decoded.
 *   <li>A parameter matches exactly one non-empty segment; its value is the segment fully
 *       percent-decoded as UTF-8.
 * </ol>
 *
 * <p>When several routes of a provider match, the one with more literal segments wins, then the
 * one declared first ({@link Provider#classify}).
 */
public final class RouteTemplate {
  /** Parameter (and placeholder) names. */
  public static final Pattern PARAM_NAME = Pattern.compile("[a-z_][a-z0-9_]*");

  private static final RouteTemplate ANY = new RouteTemplate("*", List.of(), true);

  private final String template;
  /** Normalized literal text, or null for a parameter. */
  private final List<String> literals;
  /** Parameter name per segment, or null for a literal. */
  private final List<String> params;
  private final boolean any;

  private RouteTemplate(String template, List<String[]> segs, boolean any) {
    this.template = template;
    this.any = any;
    List<String> lits = new ArrayList<>();
    List<String> names = new ArrayList<>();
    for (String[] s : segs) {
      lits.add(s[0]);
      names.add(s[1]);
    }
    this.literals = Collections.unmodifiableList(lits);
    this.params = Collections.unmodifiableList(names);
  }

  /**
   * Compiles a template.
   *
   * @throws IllegalArgumentException saying what is wrong with it
   */
  public static RouteTemplate compile(String template) {
    Objects.requireNonNull(template, "template");
    if (template.isEmpty() || template.charAt(0) != '/') {
      throw new IllegalArgumentException("a route path must start with '/'");
    }
    if (template.indexOf('?') >= 0) {
      throw new IllegalArgumentException("a route path has no query string; queries are not used to match routes");
    }
    if (template.indexOf('#') >= 0) {
      throw new IllegalArgumentException("a route path cannot contain '#'");
    }
    List<String> raw = PathCodec.segments(template);
    List<String[]> segs = new ArrayList<>();
    Set<String> seen = new LinkedHashSet<>();
    for (int i = 0; i < raw.size(); i++) {
      String seg = raw.get(i);
      if (seg.isEmpty() && i < raw.size() - 1) {
        throw new IllegalArgumentException("a route path cannot contain an empty segment ('//')");
      }
      Optional<String> name = parameterName(seg);
      if (name.isPresent()) {
        if (!seen.add(name.get())) {
          throw new IllegalArgumentException("parameter {" + name.get() + "} appears twice");
        }
        segs.add(new String[] {null, name.get()});
      } else {
        Optional<PathSafety.Refusal> bad = PathSafety.checkSegment(seg);
        if (bad.isPresent()) {
          throw new IllegalArgumentException(bad.get().message());
        }
        segs.add(new String[] {PathCodec.normalize(seg), null});
      }
    }
    return new RouteTemplate(template, segs, false);
  }

  /**
   * A template that matches every safe path and has no parameters: the path of the synthetic
   * routes {@link Provider#classify} returns for unmatched requests. Its text is {@code *}.
   */
  public static RouteTemplate any() {
    return ANY;
  }

  /** Empty when the target is safe to match and forward; otherwise why not (see {@link PathSafety}). */
  public static Optional<PathSafety.Refusal> unsafePath(String rawTarget) {
    return PathSafety.check(rawTarget);
  }

  /**
   * Matches a raw request target (path, optionally with a query). Never throws.
   *
   * @return the decoded path parameters in template order, or empty when the path does not match
   *     or is unsafe
   */
  public Optional<Map<String, String>> match(String rawTarget) {
    if (rawTarget == null || PathSafety.check(rawTarget).isPresent()) {
      return Optional.empty();
    }
    if (any) {
      return Optional.of(Map.of());
    }
    int q = rawTarget.indexOf('?');
    List<String> segs = PathCodec.segments(q < 0 ? rawTarget : rawTarget.substring(0, q));
    if (segs.size() != literals.size()) {
      return Optional.empty();
    }
    Map<String, String> values = new LinkedHashMap<>();
    for (int i = 0; i < segs.size(); i++) {
      String seg = segs.get(i);
      String literal = literals.get(i);
      if (literal != null) {
        if (!literal.equals(PathCodec.normalize(seg))) {
          return Optional.empty();
        }
      } else {
        if (seg.isEmpty()) {
          return Optional.empty();
        }
        values.put(params.get(i), PathCodec.decode(seg));
      }
    }
    return Optional.of(Collections.unmodifiableMap(values));
  }

  /** Whether {@link #match} would succeed. */
  public boolean matches(String rawTarget) {
    return match(rawTarget).isPresent();
  }

  /** Number of literal segments: the specificity used to choose between matching routes. */
  public int literalCount() {
    int n = 0;
    for (String l : literals) {
      if (l != null && !l.isEmpty()) {
        n++;
      }
    }
    return n;
  }

  /** The parameter names, in order. */
  public List<String> parameterNames() {
    List<String> out = new ArrayList<>();
    for (String p : params) {
      if (p != null) {
        out.add(p);
      }
    }
    return List.copyOf(out);
  }

  /** Whether this is {@link #any()}. */
  public boolean isCatchAll() {
    return any;
  }

  /**
   * The template with parameter names erased and literals normalized ({@code /v1/x/{}}): two
   * templates with the same shape match exactly the same paths.
   */
  public String shape() {
    if (any) {
      return "*";
    }
    StringBuilder b = new StringBuilder();
    for (String l : literals) {
      b.append('/').append(l == null ? "{}" : l);
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
    return o instanceof RouteTemplate t && t.template.equals(template) && t.any == any;
  }

  @Override
  public int hashCode() {
    return template.hashCode();
  }

  /** The parameter name when the segment is exactly {@code {name}}; throws when braces are misused. */
  static Optional<String> parameterName(String seg) {
    boolean braces = seg.indexOf('{') >= 0 || seg.indexOf('}') >= 0;
    if (!braces) {
      return Optional.empty();
    }
    if (seg.length() < 2 || seg.charAt(0) != '{' || seg.charAt(seg.length() - 1) != '}'
        || seg.indexOf('{', 1) >= 0 || seg.indexOf('}') != seg.length() - 1) {
      throw new IllegalArgumentException("'" + seg + "': a parameter must fill a whole segment, like /v1/items/{id}");
    }
    String name = seg.substring(1, seg.length() - 1);
    if (!PARAM_NAME.matcher(name).matches()) {
      throw new IllegalArgumentException("parameter name '" + name + "' must match " + PARAM_NAME.pattern());
    }
    return Optional.of(name);
  }
}
