package dev.sluice.core.headers;

/**
 * Something noteworthy found while reading a provider's response headers. Flags never stop a
 * decision; they are reported (in {@code sluice explain}, the audit log and metrics) so that an
 * operator can see why a value was adjusted or ignored.
 */
public enum HeaderFlag {
  /** A server-given delay was longer than the configured cap and was cut down to it. */
  CAPPED("capped"),
  /** A {@code Retry-After} date (or reset instant) lay in the past: the minimum delay was used. */
  CLOCK_SKEW("clock_skew"),
  /** A header field could not be parsed and was ignored. */
  MALFORMED_HEADER_IGNORED("malformed_header_ignored"),
  /** Two rate-limit dialects or fields disagreed; the most conservative reading was kept. */
  CONFLICTING_HEADERS("conflicting_headers");

  private final String code;

  HeaderFlag(String code) {
    this.code = code;
  }

  /** The stable, snake_case name used in JSON output and metrics. */
  public String code() {
    return code;
  }
}
