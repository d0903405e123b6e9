package dev.sluice.core.headers.sf;

/**
 * A Boolean (RFC 9651 §3.3.6), {@code ?1} or {@code ?0} on the wire. A parameter or dictionary
 * member written without a value is {@link #TRUE}.
 *
 * @param value the truth value
 */
public record SfBoolean(boolean value) implements BareItem {
  public static final SfBoolean TRUE = new SfBoolean(true);
  public static final SfBoolean FALSE = new SfBoolean(false);

  public static SfBoolean of(boolean value) {
    return value ? TRUE : FALSE;
  }
}
