package dev.sluice.core.policy.internal;

import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/** Small syntax checks shared by the records and the loader. */
public final class Syntax {
  /** An environment variable name as POSIX shells accept it. */
  public static final Pattern ENV_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]{0,127}");
  /** Provider ids: they appear as the first path segment of a gateway URL. */
  public static final Pattern PROVIDER_ID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_-]{0,63}");
  /** Agent ids: they appear in audit records and on the command line. */
  public static final Pattern AGENT_ID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_.-]{0,63}");

  /** Header fields a credential or idempotency header may not replace: the message framing. */
  private static final Set<String> RESERVED_HEADERS = Set.of(
      "host", "content-length", "transfer-encoding", "connection", "keep-alive", "upgrade", "te", "trailer",
      "proxy-connection", "proxy-authorization", "content-type");

  private Syntax() {}

  /** RFC 9110 §5.6.2 token: field names and methods. */
  public static boolean isToken(String s) {
    if (s == null || s.isEmpty()) {
      return false;
    }
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      boolean ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
          || "!#$%&'*+-.^_`|~".indexOf(c) >= 0;
      if (!ok) {
        return false;
      }
    }
    return true;
  }

  /** Whether a header field name is framing or hop-by-hop and so cannot carry a credential. */
  public static boolean isReservedHeader(String name) {
    return RESERVED_HEADERS.contains(name.toLowerCase(Locale.ROOT));
  }

  /** Whether the text contains a control character (CR, LF, NUL, ...). */
  public static boolean hasControl(String s) {
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c < 0x20 || c == 0x7f) {
        return true;
      }
    }
    return false;
  }

  /**
   * Whether an RFC 6901 JSON pointer is well formed: empty (the whole document) or {@code /}
   * -separated reference tokens where {@code ~} is only followed by {@code 0} or {@code 1}.
   */
  public static boolean isJsonPointer(String p) {
    if (p == null) {
      return false;
    }
    if (p.isEmpty()) {
      return true;
    }
    if (p.charAt(0) != '/') {
      return false;
    }
    for (int i = 0; i < p.length(); i++) {
      if (p.charAt(i) == '~') {
        if (i + 1 >= p.length() || (p.charAt(i + 1) != '0' && p.charAt(i + 1) != '1')) {
          return false;
        }
      }
    }
    return true;
  }
}
