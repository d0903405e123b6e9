package dev.sluice.core.escalation;

import java.util.Objects;
import java.util.regex.Pattern;

/** An escalation's id: {@code E-} and a number the journal assigns, e.g. {@code E-12}. */
public record EscalationId(long number) implements Comparable<EscalationId> {
  private static final Pattern FORM = Pattern.compile("E-([1-9][0-9]{0,17})");

  public EscalationId {
    if (number < 1) {
      throw new IllegalArgumentException("escalation numbers start at 1, got " + number);
    }
  }

  /**
   * Parses {@code E-<n>}.
   *
   * @throws IllegalArgumentException when the text is not of that form
   */
  public static EscalationId parse(String text) {
    Objects.requireNonNull(text, "text");
    var m = FORM.matcher(text.strip());
    if (!m.matches()) {
      throw new IllegalArgumentException("an escalation id looks like E-12, got '" + (text.length() > 40 ? text.substring(0, 40) + "…" : text) + "'");
    }
    return new EscalationId(Long.parseLong(m.group(1)));
  }

  @Override
  public int compareTo(EscalationId o) {
    return Long.compare(number, o.number);
  }

  @Override
  public String toString() {
    return "E-" + number;
  }
}
