package dev.sluice.core.headers.sf.internal;

/**
 * Character classes of RFC 9651 (and the RFC 9110 {@code tchar}) shared by the parser, the
 * serializer and the value types' invariant checks. Internal: not part of the public API.
 */
public final class Grammar {
  /** Largest magnitude of an Integer or Date: 15 decimal digits (RFC 9651 §3.3.1). */
  public static final long MAX_INTEGER = 999_999_999_999_999L;

  private Grammar() {}

  public static boolean isDigit(int c) {
    return c >= '0' && c <= '9';
  }

  public static boolean isAlpha(int c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
  }

  public static boolean isLcAlpha(int c) {
    return c >= 'a' && c <= 'z';
  }

  /** RFC 9110 §5.6.2 {@code tchar}. */
  public static boolean isTchar(int c) {
    return isAlpha(c) || isDigit(c) || "!#$%&'*+-.^_`|~".indexOf(c) >= 0;
  }

  /** A character allowed after the first one of a Token: tchar, ":" or "/". */
  public static boolean isTokenRest(int c) {
    return isTchar(c) || c == ':' || c == '/';
  }

  /** A character allowed after the first one of a Key: lcalpha, DIGIT, "_", "-", ".", "*". */
  public static boolean isKeyRest(int c) {
    return isLcAlpha(c) || isDigit(c) || c == '_' || c == '-' || c == '.' || c == '*';
  }

  /** Visible ASCII and space, the characters a String may hold (%x20-7E). */
  public static boolean isStringChar(int c) {
    return c >= 0x20 && c <= 0x7e;
  }

  /** The characters of a base64 payload in a Byte Sequence. */
  public static boolean isBase64Char(int c) {
    return isAlpha(c) || isDigit(c) || c == '+' || c == '/' || c == '=';
  }

  public static boolean isValidKey(String key) {
    if (key.isEmpty() || !(isLcAlpha(key.charAt(0)) || key.charAt(0) == '*')) {
      return false;
    }
    for (int i = 1; i < key.length(); i++) {
      if (!isKeyRest(key.charAt(i))) {
        return false;
      }
    }
    return true;
  }

  public static boolean isValidToken(String token) {
    if (token.isEmpty() || !(isAlpha(token.charAt(0)) || token.charAt(0) == '*')) {
      return false;
    }
    for (int i = 1; i < token.length(); i++) {
      if (!isTokenRest(token.charAt(i))) {
        return false;
      }
    }
    return true;
  }

  /** The index of the first character a String cannot hold, or -1. */
  public static int invalidStringCharAt(String s) {
    for (int i = 0; i < s.length(); i++) {
      if (!isStringChar(s.charAt(i))) {
        return i;
      }
    }
    return -1;
  }

  /** Checks a key, throwing {@link IllegalArgumentException} naming what is wrong. */
  public static String requireKey(String key, String what) {
    if (key == null) {
      throw new NullPointerException(what);
    }
    if (!isValidKey(key)) {
      throw new IllegalArgumentException(what + " '" + printable(key)
          + "' is not a structured-field key: it must start with a-z or '*' and hold only a-z, 0-9, '_', '-', '.', '*'");
    }
    return key;
  }

  /** The string with control and non-ASCII characters shown as {@code \\uXXXX}, for messages. */
  public static String printable(String s) {
    StringBuilder b = new StringBuilder(Math.min(s.length(), 64) + 8);
    for (int i = 0; i < s.length() && i < 64; i++) {
      char c = s.charAt(i);
      if (isStringChar(c)) {
        b.append(c);
      } else {
        b.append(String.format("\\u%04x", (int) c));
      }
    }
    if (s.length() > 64) {
      b.append("...");
    }
    return b.toString();
  }
}
