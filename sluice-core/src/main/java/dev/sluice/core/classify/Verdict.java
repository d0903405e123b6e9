package dev.sluice.core.classify;

import java.util.Locale;

/**
 * What one attempt's response (or transport failure) means. Verdicts are decided before any delay
 * is chosen (DESIGN.md §3 rule 8); {@link #RATE_LIMITED} and {@link #UNAVAILABLE} stay distinct
 * everywhere, in metrics and messages too.
 */
public enum Verdict {
  /** 2xx, or 304 to a conditional request. */
  SUCCESS(true, true),
  /** 429, or a GitHub-style 403 whose rate-limit headers are at zero or that carries Retry-After. */
  RATE_LIMITED(true, true),
  /** A provider quota exhausted until a daily, billing or explicit reset (matched from config). */
  QUOTA_EXHAUSTED(true, true),
  /** 503 and the other retryable 5xx (500, 502, 504, ...): the provider could not serve it now. */
  UNAVAILABLE(true, true),
  /** The connection or request timed out before any request byte left the client. */
  TIMEOUT_BEFORE_SEND(false, false),
  /** The connection was refused or reset before any request byte left the client. */
  RESET_BEFORE_SEND(false, false),
  /** Timeout, reset or truncated response after the request bytes left: the effect may have happened. */
  OUTCOME_UNKNOWN(true, false),
  /** 400, 401, 403, 404, 422 and the other 4xx that a repeat cannot fix: never repeated. */
  CLIENT_ERROR(true, true),
  /** 409: resource-specific (duplicate, version conflict, lock held); never blindly repeated. */
  CONFLICT(true, true),
  /** A 3xx: Sluice never follows redirects (they could lead to another host). */
  REDIRECT_REFUSED(true, true);

  private final boolean requestSent;
  private final boolean responseReceived;

  Verdict(boolean requestSent, boolean responseReceived) {
    this.requestSent = requestSent;
    this.responseReceived = responseReceived;
  }

  /** The stable snake_case name used in JSON, metrics and the audit log. */
  public String code() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** Whether request bytes may have reached the provider. */
  public boolean requestSent() {
    return requestSent;
  }

  /** Whether a complete response arrived. */
  public boolean responseReceived() {
    return responseReceived;
  }
}
