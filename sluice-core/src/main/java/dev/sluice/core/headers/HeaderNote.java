package dev.sluice.core.headers;

import java.util.Objects;

/**
 * A {@link HeaderFlag} raised for one header field, with a human-readable detail.
 *
 * @param flag what happened
 * @param header the field name as it appeared (e.g. {@code Retry-After})
 * @param detail a short explanation, safe to log (header values here are never credentials)
 */
public record HeaderNote(HeaderFlag flag, String header, String detail) {
  public HeaderNote {
    Objects.requireNonNull(flag, "flag");
    Objects.requireNonNull(header, "header");
    Objects.requireNonNull(detail, "detail");
  }

  @Override
  public String toString() {
    return flag.code() + " (" + header + "): " + detail;
  }
}
