package dev.sluice.core.policy;

import dev.sluice.core.policy.internal.PathCodec;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Refuses request targets that could mean one thing to Sluice and another to the provider, before
 * anything is matched or forwarded (DESIGN.md §6: not an open proxy).
 *
 * <p>The input is an origin-form target, path plus optional query ({@code /v1/x/7?y=1}), exactly as
 * received (still percent-encoded). It is refused, with a {@link Refusal} saying why, when:
 *
 * <ul>
 *   <li>it does not start with {@code /} (absolute-form {@code http://...}, authority-form, {@code *})
 *       or is empty, or longer than {@value #MAX_LENGTH} characters;
 *   <li>it contains a fragment ({@code #}), a raw backslash, or any character that RFC 3986 does
 *       not allow in a path (resp. query), such as a space, a control character or raw non-ASCII;
 *   <li>a percent-encoding is malformed ({@code %zz}, {@code %4}) or, in the path, decodes to
 *       something that is not UTF-8;
 *   <li>the path contains an encoded slash {@code %2F}/{@code %2f}, an encoded backslash {@code
 *       %5C}, an encoded control character, or a double-encoded slash, backslash or dot ({@code
 *       %252F}, {@code %255C}, {@code %252E});
 *   <li>a path segment is {@code .} or {@code ..}, raw or percent-encoded ({@code %2e}, {@code
 *       %2e%2e}, {@code .%2E}), also when followed by {@code ;parameters} ({@code ..;});
 *   <li>a path segment is empty ({@code //}), except the last one (a single trailing slash is a
 *       different path, not an unsafe one).
 * </ul>
 *
 * <p>Only the path is decoded; the query is checked for allowed characters and well-formed
 * percent-encodings but otherwise passed through as is. Never throws: {@code null} is refused too.
 */
public final class PathSafety {
  /** The longest target accepted, in characters. */
  public static final int MAX_LENGTH = 8192;

  private PathSafety() {}

  /**
   * Why a target was refused.
   *
   * @param code a stable machine-readable reason: {@code not_origin_form}, {@code too_long}, {@code
   *     fragment}, {@code backslash}, {@code bad_character}, {@code bad_percent_encoding}, {@code
   *     bad_utf8}, {@code encoded_slash}, {@code encoded_backslash}, {@code encoded_control},
   *     {@code double_encoding}, {@code dot_segment}, {@code empty_segment}
   * @param message one sentence for a human, naming the offending part
   */
  public record Refusal(String code, String message) {
    public Refusal {
      Objects.requireNonNull(code, "code");
      Objects.requireNonNull(message, "message");
    }
  }

  /** Whether the target is safe to match and forward. */
  public static boolean isSafe(String rawTarget) {
    return check(rawTarget).isEmpty();
  }

  /** Empty when the target is safe; otherwise the first reason it is not. */
  public static Optional<Refusal> check(String rawTarget) {
    if (rawTarget == null || rawTarget.isEmpty()) {
      return refuse("not_origin_form", "the path is empty; expected one starting with '/'");
    }
    if (rawTarget.length() > MAX_LENGTH) {
      return refuse("too_long", "the path is " + rawTarget.length() + " characters long; at most " + MAX_LENGTH + " are accepted");
    }
    if (rawTarget.charAt(0) != '/') {
      return refuse("not_origin_form", "the path must start with '/' (absolute-form and authority-form targets are refused)");
    }
    int q = rawTarget.indexOf('?');
    String path = q < 0 ? rawTarget : rawTarget.substring(0, q);
    Optional<Refusal> chars = checkPathCharacters(path);
    if (chars.isPresent()) {
      return chars;
    }
    if (q >= 0) {
      Optional<Refusal> query = checkQuery(rawTarget.substring(q + 1));
      if (query.isPresent()) {
        return query;
      }
    }
    List<String> segments = PathCodec.segments(path);
    for (int i = 0; i < segments.size(); i++) {
      String seg = segments.get(i);
      if (seg.isEmpty() && i < segments.size() - 1) {
        return refuse("empty_segment", "the path has an empty segment ('//')");
      }
      if (PathCodec.isDotSegment(seg)) {
        return refuse("dot_segment", "path segment " + (i + 1) + " is a dot-segment ('" + seg + "'); '.' and '..' are refused, also percent-encoded");
      }
      if (PathCodec.decode(seg) == null) {
        return refuse("bad_utf8", "path segment " + (i + 1) + " percent-decodes to bytes that are not UTF-8");
      }
    }
    return Optional.empty();
  }

  /** Checks one raw literal segment of a template (no slashes inside); used by the templates. */
  static Optional<Refusal> checkSegment(String seg) {
    Optional<Refusal> chars = checkPathCharacters(seg);
    if (chars.isPresent()) {
      return chars;
    }
    if (PathCodec.isDotSegment(seg)) {
      return refuse("dot_segment", "'" + seg + "' is a dot-segment; '.' and '..' are not allowed");
    }
    if (PathCodec.decode(seg) == null) {
      return refuse("bad_utf8", "'" + seg + "' percent-decodes to bytes that are not UTF-8");
    }
    return Optional.empty();
  }

  private static Optional<Refusal> checkPathCharacters(String path) {
    for (int i = 0; i < path.length(); i++) {
      char c = path.charAt(i);
      if (c == '%') {
        int v = PathCodec.pctByte(path, i);
        if (v < 0) {
          return refuse("bad_percent_encoding", "malformed percent-encoding at character " + (i + 1) + "; expected '%' and two hex digits");
        }
        if (v == '/') {
          return refuse("encoded_slash", "the path contains an encoded slash ('" + path.substring(i, i + 3) + "')");
        }
        if (v == '\\') {
          return refuse("encoded_backslash", "the path contains an encoded backslash ('" + path.substring(i, i + 3) + "')");
        }
        if (v < 0x20 || v == 0x7f) {
          return refuse("encoded_control", "the path contains an encoded control character ('" + path.substring(i, i + 3) + "')");
        }
        if (v == '%' && i + 4 < path.length()) {
          // %25 followed by 2F, 5C or 2E: a server that decodes twice would see a slash or a dot.
          int hi = PathCodec.hexValue(path.charAt(i + 3));
          int lo = PathCodec.hexValue(path.charAt(i + 4));
          int next = hi < 0 || lo < 0 ? -1 : hi * 16 + lo;
          if (next == '/' || next == '\\' || next == '.') {
            return refuse("double_encoding", "the path contains a double-encoded '" + (char) next + "' ('" + path.substring(i, i + 5) + "')");
          }
        }
        i += 2;
      } else if (c == '\\') {
        return refuse("backslash", "the path contains a backslash; some servers read it as '/'");
      } else if (c == '#') {
        return refuse("fragment", "the target contains a fragment ('#'); fragments are never sent to a server");
      } else if (c != '/' && !PathCodec.isPlainPchar(c)) {
        return refuse("bad_character", "character " + PathCodec.describeChar(path.codePointAt(i)) + " is not allowed in a path; percent-encode it");
      }
    }
    return Optional.empty();
  }

  private static Optional<Refusal> checkQuery(String query) {
    for (int i = 0; i < query.length(); i++) {
      char c = query.charAt(i);
      if (c == '%') {
        if (PathCodec.pctByte(query, i) < 0) {
          return refuse("bad_percent_encoding", "malformed percent-encoding in the query; expected '%' and two hex digits");
        }
        i += 2;
      } else if (c == '#') {
        return refuse("fragment", "the target contains a fragment ('#'); fragments are never sent to a server");
      } else if (c != '/' && c != '?' && !PathCodec.isPlainPchar(c)) {
        return refuse("bad_character", "character " + PathCodec.describeChar(query.codePointAt(i)) + " is not allowed in a query; percent-encode it");
      }
    }
    return Optional.empty();
  }

  private static Optional<Refusal> refuse(String code, String message) {
    return Optional.of(new Refusal(code, message));
  }
}
