package dev.sluice.core.engine;

import java.util.Locale;
import java.util.Optional;

/**
 * How urgently an action should leave. Interactive work goes before background work in every scope
 * queue and may use the pacing bucket's interactive reserve; background work may not. Surfaces
 * choose it per call (the gateway's {@code Sluice-Priority} header).
 */
public enum Priority {
  /** A person or an agent's foreground step is waiting on it. */
  INTERACTIVE,
  /** Batch and housekeeping work. */
  BACKGROUND;

  public String code() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** Parses {@code interactive|background}, ignoring case. */
  public static Optional<Priority> fromCode(String code) {
    for (Priority p : values()) {
      if (p.code().equalsIgnoreCase(code)) {
        return Optional.of(p);
      }
    }
    return Optional.empty();
  }
}
