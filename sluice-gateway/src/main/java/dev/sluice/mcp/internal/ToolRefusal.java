package dev.sluice.mcp.internal;

/**
 * A tool call refused before anything was queued or sent: a malformed argument, a provider the agent
 * may not use, a reserved header. The message says what was wrong and is shown to the model.
 */
public final class ToolRefusal extends RuntimeException {
  private final String code;

  public ToolRefusal(String code, String message) {
    super(message, null, false, false);
    this.code = code;
  }

  /** A snake_case reason code, e.g. {@code reserved_header}. */
  public String code() {
    return code;
  }
}
