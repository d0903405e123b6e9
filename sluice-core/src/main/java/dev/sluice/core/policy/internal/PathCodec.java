package dev.sluice.core.policy.internal;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * RFC 3986 path mechanics shared by {@code PathSafety}, {@code RouteTemplate} and {@code
 * LookupTemplate}. Everything here works on the raw (still percent-encoded) text, because a path
 * must be split on {@code /} before anything is decoded: decoding first would turn {@code %2F} into
 * a separator the provider never sees.
 */
public final class PathCodec {
  private static final String SUB_DELIMS = "!$&'()*+,;=";
  private static final char[] HEX = "0123456789ABCDEF".toCharArray();

  private PathCodec() {}

  /** ALPHA / DIGIT / "-" / "." / "_" / "~". */
  public static boolean isUnreserved(int c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '.' || c == '_' || c == '~';
  }

  /** A pchar other than a percent-encoding: unreserved, sub-delims, ":" or "@". */
  public static boolean isPlainPchar(char c) {
    return isUnreserved(c) || SUB_DELIMS.indexOf(c) >= 0 || c == ':' || c == '@';
  }

  public static int hexValue(char c) {
    if (c >= '0' && c <= '9') {
      return c - '0';
    }
    if (c >= 'a' && c <= 'f') {
      return c - 'a' + 10;
    }
    if (c >= 'A' && c <= 'F') {
      return c - 'A' + 10;
    }
    return -1;
  }

  /** The byte encoded at {@code s[i..i+2]} ({@code %XX}), or -1 when malformed. */
  public static int pctByte(String s, int i) {
    if (i < 0 || i + 2 >= s.length()) {
      return -1;
    }
    if (s.charAt(i) != '%') {
      return -1;
    }
    int hi = hexValue(s.charAt(i + 1));
    int lo = hexValue(s.charAt(i + 2));
    return hi < 0 || lo < 0 ? -1 : hi * 16 + lo;
  }

  /**
   * The segments of an origin-form path ({@code /a/b/} gives {@code [a, b, ""]}, {@code /} gives
   * {@code [""]}). The caller has checked the leading slash.
   */
  public static List<String> segments(String path) {
    List<String> out = new ArrayList<>();
    int start = 1;
    while (true) {
      int slash = path.indexOf('/', start);
      if (slash < 0) {
        out.add(path.substring(start));
        return out;
      }
      out.add(path.substring(start, slash));
      start = slash + 1;
    }
  }

  /**
   * The comparison form of a well-formed raw segment: percent-encoded unreserved characters
   * decoded (RFC 3986 §6.2.2.2 says they are equivalent), every other percent-encoding kept with
   * upper-case hex. Returns null when the segment has a malformed percent-encoding.
   */
  public static String normalize(String seg) {
    StringBuilder b = new StringBuilder(seg.length());
    for (int i = 0; i < seg.length(); i++) {
      char c = seg.charAt(i);
      if (c == '%') {
        int v = pctByte(seg, i);
        if (v < 0) {
          return null;
        }
        if (isUnreserved(v)) {
          b.append((char) v);
        } else {
          b.append('%').append(HEX[v >> 4]).append(HEX[v & 15]);
        }
        i += 2;
      } else {
        b.append(c);
      }
    }
    return b.toString();
  }

  /** Whether a raw segment is {@code .} or {@code ..}, plain or percent-encoded, before any {@code ;params}. */
  public static boolean isDotSegment(String seg) {
    int semi = seg.indexOf(';');
    String head = normalize(semi < 0 ? seg : seg.substring(0, semi));
    return ".".equals(head) || "..".equals(head);
  }

  /** Fully decodes a raw segment as UTF-8, or returns null when it is malformed or not UTF-8. */
  public static String decode(String seg) {
    if (seg.indexOf('%') < 0) {
      return seg;
    }
    ByteArrayOutputStream bytes = new ByteArrayOutputStream(seg.length());
    for (int i = 0; i < seg.length(); i++) {
      char c = seg.charAt(i);
      if (c == '%') {
        int v = pctByte(seg, i);
        if (v < 0) {
          return null;
        }
        bytes.write(v);
        i += 2;
      } else {
        byte[] enc = String.valueOf(c).getBytes(StandardCharsets.UTF_8);
        bytes.write(enc, 0, enc.length);
      }
    }
    try {
      return StandardCharsets.UTF_8.newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(bytes.toByteArray()))
          .toString();
    } catch (CharacterCodingException e) {
      return null;
    }
  }

  /** Percent-encodes every byte of the UTF-8 form that is not unreserved: safe in a segment and in a query value. */
  public static String encode(String value) {
    StringBuilder b = new StringBuilder(value.length() + 8);
    for (byte x : value.getBytes(StandardCharsets.UTF_8)) {
      int v = x & 0xff;
      if (isUnreserved(v)) {
        b.append((char) v);
      } else {
        b.append('%').append(HEX[v >> 4]).append(HEX[v & 15]);
      }
    }
    return b.toString();
  }

  /** {@code U+0020}-style name of a character, for messages. */
  public static String describeChar(int c) {
    String hex = Integer.toHexString(c).toUpperCase(Locale.ROOT);
    String code = "U+" + "0".repeat(Math.max(0, 4 - hex.length())) + hex;
    return c > 0x20 && c < 0x7f ? "'" + (char) c + "' (" + code + ")" : code;
  }
}
