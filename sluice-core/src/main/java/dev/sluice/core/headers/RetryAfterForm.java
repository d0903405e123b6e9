package dev.sluice.core.headers;

/**
 * The form a server-given delay arrived in. The first four are the forms of {@code Retry-After}
 * (RFC 9110 §10.2.3 and the three HTTP-date forms of §5.6.7); the last is OpenAI's
 * {@code retry-after-ms}.
 */
public enum RetryAfterForm {
  /** {@code Retry-After: 120}: a number of seconds. */
  DELTA_SECONDS,
  /** {@code Retry-After: Sun, 06 Nov 1994 08:49:37 GMT}: the preferred HTTP-date form. */
  IMF_FIXDATE,
  /** {@code Retry-After: Sunday, 06-Nov-94 08:49:37 GMT}: the obsolete RFC 850 form. */
  RFC_850,
  /** {@code Retry-After: Sun Nov  6 08:49:37 1994}: the obsolete ANSI C asctime() form. */
  ASCTIME,
  /** {@code retry-after-ms: 512.5}: a decimal number of milliseconds (OpenAI). */
  DELTA_MILLISECONDS
}
