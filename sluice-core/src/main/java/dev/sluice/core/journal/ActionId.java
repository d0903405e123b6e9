package dev.sluice.core.journal;

import dev.sluice.core.journal.internal.Ulid;
import java.time.Instant;
import java.util.Objects;

/**
 * The journal's id of one logical action: a ULID (26 characters of Crockford base32, the first
 * ten encoding the creation millisecond), so ids are unique without any coordination between
 * gateway instances, sort roughly by creation time, and mean the same in every store (no row ids,
 * no database sequences).
 *
 * @param value the 26-character ULID, upper case
 */
public record ActionId(String value) implements Comparable<ActionId> {
  public ActionId {
    Objects.requireNonNull(value, "value");
    if (!Ulid.isValid(value)) {
      throw new IllegalArgumentException("an action id is a 26-character ULID (Crockford base32, upper case), got '" + printable(value) + "'");
    }
  }

  /** A fresh id whose time part is {@code createdAt}'s millisecond; the rest is random. */
  public static ActionId newId(Instant createdAt) {
    return new ActionId(Ulid.generate(createdAt));
  }

  /** Parses an id, e.g. from an operator's command line. */
  public static ActionId of(String value) {
    return new ActionId(value);
  }

  @Override
  public int compareTo(ActionId o) {
    return value.compareTo(o.value);
  }

  @Override
  public String toString() {
    return value;
  }

  private static String printable(String s) {
    String cut = s.length() > 40 ? s.substring(0, 40) + "…" : s;
    return cut.replaceAll("\\p{Cntrl}", "?");
  }
}
