package dev.sluice.mcp;

import java.time.Clock;
import java.time.Duration;
import java.util.Objects;

/**
 * Settings of Sluice's MCP tools.
 *
 * @param bodyCapBytes the most response body bytes shown to the model; a longer body is cut and
 *     flagged {@code truncated: true} with this cap (default 32 KiB)
 * @param defaultWait how long {@code http_request} waits for the outcome before it answers {@code
 *     state: delayed} when the call gives no {@code wait_seconds} (default 20 s)
 * @param maxWait the largest {@code wait_seconds} accepted (default 120 s)
 * @param actionsKept how many actions the server remembers for {@code action_status} (default
 *     10,000; the oldest finished ones are forgotten first)
 * @param clock the clock for {@code due_at}; default UTC wall clock
 */
public record McpSettings(int bodyCapBytes, Duration defaultWait, Duration maxWait, int actionsKept, Clock clock) {
  public static final int DEFAULT_BODY_CAP_BYTES = 32 * 1024;

  public McpSettings {
    Objects.requireNonNull(defaultWait, "defaultWait");
    Objects.requireNonNull(maxWait, "maxWait");
    Objects.requireNonNull(clock, "clock");
    if (bodyCapBytes < 0) {
      throw new IllegalArgumentException("bodyCapBytes cannot be negative, got " + bodyCapBytes);
    }
    if (defaultWait.isNegative() || defaultWait.compareTo(maxWait) > 0) {
      throw new IllegalArgumentException("defaultWait must be between 0 and maxWait (" + maxWait + "), got " + defaultWait);
    }
    if (actionsKept < 1) {
      throw new IllegalArgumentException("actionsKept must be at least 1, got " + actionsKept);
    }
  }

  /** 32 KiB body cap, 20 s default wait, 120 s longest wait, 10,000 actions, UTC wall clock. */
  public static McpSettings defaults() {
    return new McpSettings(DEFAULT_BODY_CAP_BYTES, Duration.ofSeconds(20), Duration.ofSeconds(120), 10_000, Clock.systemUTC());
  }

  public McpSettings withBodyCapBytes(int n) {
    return new McpSettings(n, defaultWait, maxWait, actionsKept, clock);
  }

  public McpSettings withClock(Clock c) {
    return new McpSettings(bodyCapBytes, defaultWait, maxWait, actionsKept, c);
  }
}
