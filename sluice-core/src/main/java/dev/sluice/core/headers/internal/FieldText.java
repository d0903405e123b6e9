package dev.sluice.core.headers.internal;

/** Small text helpers shared by the header parsers; every one is total (never throws on non-null input). */
public final class FieldText {
  /** How much of an offending value a note repeats: enough to recognise it, never a flood. */
  private static final int SHOWN_MAX = 40;

  private FieldText() {}

  /** Removes optional whitespace (SP and HTAB, RFC 9110 §5.6.3) around a field value. */
  public static String trimOws(String s) {
    int start = 0;
    int end = s.length();
    while (start < end && isOws(s.charAt(start))) {
      start++;
    }
    while (end > start && isOws(s.charAt(end - 1))) {
      end--;
    }
    return s.substring(start, end);
  }

  private static boolean isOws(char c) {
    return c == ' ' || c == '\t';
  }

  /** An ASCII digit; {@link Character#isDigit} would also accept other scripts' digits. */
  public static boolean isDigit(char c) {
    return c >= '0' && c <= '9';
  }

  /** True when {@code s} is non-empty and made of ASCII digits only. */
  public static boolean allDigits(String s, int from, int to) {
    if (from >= to) {
      return false;
    }
    for (int i = from; i < to; i++) {
      if (!isDigit(s.charAt(i))) {
        return false;
      }
    }
    return true;
  }

  /** Compares ignoring ASCII case only, so that e.g. U+017F never matches {@code s}. */
  public static boolean asciiEqualsIgnoreCase(String a, String b) {
    if (a.length() != b.length()) {
      return false;
    }
    for (int i = 0; i < a.length(); i++) {
      if (asciiLower(a.charAt(i)) != asciiLower(b.charAt(i))) {
        return false;
      }
    }
    return true;
  }

  private static char asciiLower(char c) {
    return c >= 'A' && c <= 'Z' ? (char) (c + ('a' - 'A')) : c;
  }

  /**
   * An offending value as a note may show it: quoted, cut to a few dozen characters, with control
   * and non-ASCII characters replaced by {@code ?} so that a note is always one safe log line.
   */
  public static String shown(String value) {
    StringBuilder b = new StringBuilder(Math.min(value.length(), SHOWN_MAX) + 5).append('\'');
    int n = Math.min(value.length(), SHOWN_MAX);
    for (int i = 0; i < n; i++) {
      char c = value.charAt(i);
      b.append(c >= 0x20 && c < 0x7f ? c : '?');
    }
    if (value.length() > SHOWN_MAX) {
      b.append("...");
    }
    return b.append('\'').toString();
  }
}
