package dev.sluice.core.policy;

import java.util.Objects;

/**
 * One thing wrong with a policy file, located precisely enough to fix it without guessing.
 *
 * @param file the file name as the user gave it (or the source name passed to {@link
 *     PolicyLoader#parse(String, String)})
 * @param path where inside the document, in dotted form with zero-based list indices, e.g. {@code
 *     providers.billing-api.routes[2].class}; empty for the document as a whole
 * @param line 1-based line, or 0 when the problem has no position (e.g. the file is missing)
 * @param column 1-based column, or 0 when unknown
 * @param message what was found and what was expected; never contains a secret value
 */
public record Problem(String file, String path, int line, int column, String message) {
  public Problem {
    Objects.requireNonNull(file, "file");
    Objects.requireNonNull(path, "path");
    Objects.requireNonNull(message, "message");
    if (line < 0 || column < 0) {
      throw new IllegalArgumentException("line and column are 1-based, or 0 when unknown: " + line + ":" + column);
    }
  }

  /**
   * The problem as one line: {@code FILE:LINE:COL: path: message}. The position is left out when
   * unknown and the path when empty, so a missing file reads {@code FILE: message}. Control
   * characters in the path or message are escaped ({@code \u000a}), so it is always one line.
   */
  public String render() {
    StringBuilder b = new StringBuilder(file);
    if (line > 0) {
      b.append(':').append(line);
      if (column > 0) {
        b.append(':').append(column);
      }
    }
    b.append(": ");
    if (!path.isEmpty()) {
      b.append(printable(path)).append(": ");
    }
    return b.append(printable(message)).toString();
  }

  /** Control characters (a quoted key may hold a line break) escaped, so a problem stays one line. */
  private static String printable(String s) {
    StringBuilder b = null;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c < 0x20 || c == 0x7f || c == 0x2028 || c == 0x2029 || c == 0x85) {
        if (b == null) {
          b = new StringBuilder(s.substring(0, i));
        }
        b.append(String.format("\\u%04x", (int) c));
      } else if (b != null) {
        b.append(c);
      }
    }
    return b == null ? s : b.toString();
  }

  @Override
  public String toString() {
    return render();
  }
}
