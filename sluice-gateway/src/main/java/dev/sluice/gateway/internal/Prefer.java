package dev.sluice.gateway.internal;

import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The preferences of RFC 7240 the gateway honours: {@code respond-async} and {@code wait=N}.
 * Garbage is ignored, never an error.
 */
public record Prefer(boolean respondAsync, Optional<Duration> waitFor) {
  /** Reads every {@code Prefer} field line. */
  public static Prefer parse(List<String> values) {
    boolean async = false;
    Optional<Duration> wait = Optional.empty();
    for (String v : values) {
      for (String part : v.split(",")) {
        String p = part.split(";", 2)[0].trim().toLowerCase(Locale.ROOT);
        if (p.equals("respond-async")) {
          async = true;
        } else if (p.startsWith("wait=")) {
          String n = p.substring(5).replace("\"", "").trim();
          if (n.matches("[0-9]{1,9}")) {
            wait = Optional.of(Duration.ofSeconds(Long.parseLong(n)));
          }
        }
      }
    }
    return new Prefer(async, wait);
  }
}
