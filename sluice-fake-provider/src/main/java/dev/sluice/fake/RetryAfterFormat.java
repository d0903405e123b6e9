package dev.sluice.fake;

import java.util.Locale;
import java.util.Optional;

/** How the fake writes {@code Retry-After} on the answers that carry one. Default: {@link #SECONDS}. */
public enum RetryAfterFormat {
  /** Delta-seconds, always at least 1 (a {@code Retry-After: 0} would invite a hot loop). */
  SECONDS,
  /** An IMF-fixdate ({@code Sun, 06 Nov 1994 08:49:37 GMT}) computed from the fake's clock. */
  HTTP_DATE,
  /** No {@code Retry-After} at all, to emulate providers that send none. */
  NONE;

  /** The config name: {@code seconds}, {@code http-date} or {@code none}. */
  public String configName() {
    return name().toLowerCase(Locale.ROOT).replace('_', '-');
  }

  /** Looks a format up by its config name ({@code http_date} is accepted too). */
  public static Optional<RetryAfterFormat> fromConfigName(String name) {
    String n = name == null ? "" : name.trim().toLowerCase(Locale.ROOT).replace('_', '-');
    for (RetryAfterFormat f : values()) {
      if (f.configName().equals(n)) {
        return Optional.of(f);
      }
    }
    return Optional.empty();
  }
}
