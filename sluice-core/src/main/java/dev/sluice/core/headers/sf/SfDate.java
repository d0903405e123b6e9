package dev.sluice.core.headers.sf;

import dev.sluice.core.headers.sf.internal.Grammar;
import java.time.Instant;

/**
 * A Date (RFC 9651 §3.3.7): whole seconds since the Unix epoch, {@code @1659578233} on the wire,
 * within the Integer range (15 digits).
 *
 * @param epochSeconds seconds since 1970-01-01T00:00:00Z, negative before it
 */
public record SfDate(long epochSeconds) implements BareItem {
  public SfDate {
    if (epochSeconds > Grammar.MAX_INTEGER || epochSeconds < -Grammar.MAX_INTEGER) {
      throw new IllegalArgumentException("structured-field date " + epochSeconds + " has more than 15 digits");
    }
  }

  public static SfDate of(long epochSeconds) {
    return new SfDate(epochSeconds);
  }

  /** The date as an instant. */
  public Instant toInstant() {
    return Instant.ofEpochSecond(epochSeconds);
  }
}
