package dev.sluice.core.headers.internal;

import java.util.Objects;

/**
 * The outcome of parsing one untrusted header value: a value, or the reason it was refused.
 * Parsers of header values return this instead of throwing, so that garbage from a provider can
 * never abort a decision; callers turn a refusal into a {@code HeaderNote}.
 */
public sealed interface ValueParse<T> {

  /** The value was read. */
  record Ok<T>(T value) implements ValueParse<T> {
    public Ok {
      Objects.requireNonNull(value, "value");
    }
  }

  /** The value was refused; {@code why} is a short, loggable reason. */
  record Refused<T>(String why) implements ValueParse<T> {
    public Refused {
      Objects.requireNonNull(why, "why");
    }
  }

  static <T> ValueParse<T> ok(T value) {
    return new Ok<>(value);
  }

  static <T> ValueParse<T> refused(String why) {
    return new Refused<>(why);
  }
}
