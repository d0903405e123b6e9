package dev.sluice.core.classify;

import java.util.Locale;

/**
 * How an attempt failed below HTTP. The transport reports whether any request byte had left the
 * client: that single fact separates a safe resend from an uncertain write (DESIGN.md §3 rule 7).
 */
public enum TransportFailure {
  /** Could not connect in time (nothing sent). */
  CONNECT_TIMEOUT(false),
  /** Connection refused, unreachable host, DNS failure (nothing sent). */
  CONNECT_FAILED(false),
  /** Reset or closed while writing the request, before the first byte was flushed. */
  RESET_BEFORE_SEND(false),
  /** No response within the read timeout after the request was written. */
  READ_TIMEOUT(true),
  /** Reset or closed after the request was written, before a response arrived. */
  RESET_AFTER_SEND(true),
  /** A response started but the body was cut short. */
  TRUNCATED_RESPONSE(true);

  private final boolean afterSend;

  TransportFailure(boolean afterSend) {
    this.afterSend = afterSend;
  }

  /** Whether request bytes had left the client when it failed. */
  public boolean afterSend() {
    return afterSend;
  }

  public String code() {
    return name().toLowerCase(Locale.ROOT);
  }
}
