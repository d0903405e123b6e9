package dev.sluice.core.headers.sf;

/**
 * A field value is not a valid structured field of the requested type (RFC 9651 §4.2: the whole
 * field fails to parse). Checked, so that readers of untrusted headers cannot forget to catch it.
 * The message carries the position and reason but never the field value itself.
 */
public final class StructuredFieldException extends Exception {
  private static final long serialVersionUID = 1L;

  private final int position;
  private final String reason;

  public StructuredFieldException(int position, String reason) {
    super(reason + " at position " + position);
    this.position = position;
    this.reason = reason;
  }

  /** The zero-based character index in the (joined) field value where parsing failed. */
  public int position() {
    return position;
  }

  /** Why parsing failed, in a few words ({@code "integer has more than 15 digits"}). */
  public String reason() {
    return reason;
  }
}
