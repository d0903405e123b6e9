package dev.sluice.core.headers;

import dev.sluice.core.headers.internal.FieldText;
import dev.sluice.core.headers.internal.HttpDates;
import dev.sluice.core.headers.internal.InstantMath;
import dev.sluice.core.headers.internal.ValueParse;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Parses a server-given delay: {@code Retry-After} (RFC 9110 §10.2.3) and OpenAI's {@code
 * retry-after-ms}. Pure functions of their arguments; they never throw on any field value.
 *
 * <p>The rules, for every form:
 *
 * <ul>
 *   <li>A delay beyond the policy's cap becomes the cap, flagged {@link HeaderFlag#CAPPED}. A
 *       number too large for any arithmetic is simply "beyond the cap", never an overflow.
 *   <li>An HTTP-date that is not after {@code now} (the server's clock is behind ours, or the
 *       response was delayed) becomes the policy's minimum delay, flagged {@link
 *       HeaderFlag#CLOCK_SKEW}.
 *   <li>Any other delay shorter than the minimum, including a delta of {@code 0} (the server's
 *       legitimate "retry now"), is raised to the minimum <em>without</em> a flag: nothing is wrong
 *       with such a value, but answering it with an immediate resend is how hot loops start.
 *   <li>Anything else (empty, signs, decimals in {@code Retry-After}, units, unknown date layouts,
 *       impossible dates) is ignored: the result is empty and carries a {@link
 *       HeaderFlag#MALFORMED_HEADER_IGNORED} note saying why.
 * </ul>
 *
 * <p>Surrounding spaces and tabs are tolerated; nothing else is.
 */
public final class RetryAfter {
  /** The field name used in notes for {@link #parse}. */
  public static final String RETRY_AFTER = "Retry-After";
  /** The field name used in notes for {@link #parseMillis}. */
  public static final String RETRY_AFTER_MS = "retry-after-ms";

  private static final BigDecimal NANOS_PER_MILLI = BigDecimal.valueOf(1_000_000);

  private RetryAfter() {}

  /**
   * Parses a {@code Retry-After} field value: {@code delta-seconds} ({@code 1*DIGIT}) or an
   * HTTP-date in IMF-fixdate, obsolete RFC 850 or asctime form.
   *
   * @param fieldValue the field value as received
   * @param now the instant the response was received
   * @param policy the bounds to apply
   */
  public static RetryAfterResult parse(String fieldValue, Instant now, RetryAfterPolicy policy) {
    Objects.requireNonNull(fieldValue, "fieldValue");
    Objects.requireNonNull(now, "now");
    Objects.requireNonNull(policy, "policy");
    String value = FieldText.trimOws(fieldValue);
    if (value.isEmpty()) {
      return malformed(RETRY_AFTER, "empty value", fieldValue);
    }
    if (FieldText.isDigit(value.charAt(0))) {
      if (!FieldText.allDigits(value, 0, value.length())) {
        return malformed(RETRY_AFTER, "delta-seconds must be digits only (no sign, decimals or unit)", fieldValue);
      }
      return bounded(RETRY_AFTER, deltaSeconds(value), RetryAfterForm.DELTA_SECONDS, now, policy,
          FieldText.shown(value) + " seconds");
    }
    if (value.charAt(0) == '-' || value.charAt(0) == '+') {
      return malformed(RETRY_AFTER, "delta-seconds must not carry a sign", fieldValue);
    }
    return switch (HttpDates.parse(value, now)) {
      case ValueParse.Refused<HttpDates.HttpDate> r -> malformed(RETRY_AFTER, r.why(), fieldValue);
      case ValueParse.Ok<HttpDates.HttpDate> ok -> fromDate(ok.value(), now, policy);
    };
  }

  /**
   * Parses OpenAI's {@code retry-after-ms}: a non-negative decimal number of milliseconds ({@code
   * 1*DIGIT ["." 1*DIGIT]}, e.g. {@code 512} or {@code 20.5}). Sub-nanosecond fractions round up.
   *
   * @param fieldValue the field value as received
   * @param now the instant the response was received
   * @param policy the bounds to apply
   */
  public static RetryAfterResult parseMillis(String fieldValue, Instant now, RetryAfterPolicy policy) {
    Objects.requireNonNull(fieldValue, "fieldValue");
    Objects.requireNonNull(now, "now");
    Objects.requireNonNull(policy, "policy");
    String value = FieldText.trimOws(fieldValue);
    if (value.isEmpty()) {
      return malformed(RETRY_AFTER_MS, "empty value", fieldValue);
    }
    int dot = value.indexOf('.');
    int intEnd = dot < 0 ? value.length() : dot;
    if (!FieldText.allDigits(value, 0, intEnd) || (dot >= 0 && !FieldText.allDigits(value, dot + 1, value.length()))) {
      String why = value.charAt(0) == '-' ? "negative milliseconds" : "expected a non-negative decimal number of milliseconds";
      return malformed(RETRY_AFTER_MS, why, fieldValue);
    }
    return bounded(RETRY_AFTER_MS, millis(value, intEnd), RetryAfterForm.DELTA_MILLISECONDS, now, policy,
        FieldText.shown(value) + " ms");
  }

  /** Whole seconds; empty when too large for a Duration (which is beyond any cap anyway). */
  private static Optional<Duration> deltaSeconds(String digits) {
    int start = firstSignificant(digits, digits.length());
    if (digits.length() - start > 18) {
      return Optional.empty();
    }
    return Optional.of(Duration.ofSeconds(Long.parseLong(digits, start, digits.length(), 10)));
  }

  /** Milliseconds with an optional fraction; empty when too large for a Duration. */
  private static Optional<Duration> millis(String value, int intEnd) {
    int start = firstSignificant(value, intEnd);
    if (intEnd - start > 18) {
      return Optional.empty();
    }
    // Keep 7 fraction digits: one more than nanosecond precision, so CEILING rounds correctly.
    String fraction = intEnd < value.length() ? value.substring(intEnd + 1, Math.min(value.length(), intEnd + 8)) : "";
    boolean moreDigits = intEnd + 8 < value.length() && value.substring(intEnd + 8).chars().anyMatch(c -> c != '0');
    BigDecimal ms = new BigDecimal(value.substring(start, intEnd) + (fraction.isEmpty() ? "" : "." + fraction));
    if (moreDigits) {
      ms = ms.add(BigDecimal.ONE.movePointLeft(8));
    }
    BigDecimal nanos = ms.multiply(NANOS_PER_MILLI).setScale(0, RoundingMode.CEILING);
    BigDecimal[] secondsAndNanos = nanos.divideAndRemainder(BigDecimal.valueOf(1_000_000_000L));
    return Optional.of(Duration.ofSeconds(secondsAndNanos[0].longValueExact(), secondsAndNanos[1].longValueExact()));
  }

  private static int firstSignificant(String digits, int end) {
    int start = 0;
    while (start < end - 1 && digits.charAt(start) == '0') {
      start++;
    }
    return start;
  }

  /** A duration as operators read it in notes: {@code 1 s}, {@code 3600 s}, {@code 0.25 s}. */
  static String secs(Duration d) {
    java.math.BigDecimal s = java.math.BigDecimal.valueOf(d.getSeconds()).add(java.math.BigDecimal.valueOf(d.getNano(), 9)).stripTrailingZeros();
    return (s.scale() < 0 ? s.setScale(0) : s).toPlainString() + " s";
  }

  private static RetryAfterResult bounded(
      String header, Optional<Duration> raw, RetryAfterForm form, Instant now, RetryAfterPolicy policy, String described) {
    List<HeaderNote> notes = new ArrayList<>();
    Duration delay;
    if (raw.isEmpty() || raw.get().compareTo(policy.cap()) > 0) {
      delay = policy.cap();
      notes.add(new HeaderNote(HeaderFlag.CAPPED, header,
          "a delay of " + described + " is beyond the cap of " + secs(policy.cap()) + "; using the cap"));
    } else if (raw.get().compareTo(policy.minimumDelay()) < 0) {
      delay = policy.minimumDelay();
    } else {
      delay = raw.get();
    }
    return new RetryAfterResult(Optional.of(delay), Optional.of(form), Optional.of(InstantMath.plusSaturating(now, delay)), notes);
  }

  private static RetryAfterResult fromDate(HttpDates.HttpDate date, Instant now, RetryAfterPolicy policy) {
    if (!date.instant().isAfter(now)) {
      Duration delay = policy.minimumDelay();
      HeaderNote note = new HeaderNote(HeaderFlag.CLOCK_SKEW, RETRY_AFTER,
          "date " + date.instant() + " is not after now (" + now + "); using the minimum delay of " + secs(delay));
      return new RetryAfterResult(Optional.of(delay), Optional.of(date.form()), Optional.of(InstantMath.plusSaturating(now, delay)), List.of(note));
    }
    Duration raw = Duration.between(now, date.instant());
    return bounded(RETRY_AFTER, Optional.of(raw), date.form(), now, policy, secs(raw) + " (until " + date.instant() + ")");
  }

  private static RetryAfterResult malformed(String header, String why, String fieldValue) {
    HeaderNote note = new HeaderNote(HeaderFlag.MALFORMED_HEADER_IGNORED, header, why + " (got " + FieldText.shown(fieldValue) + ")");
    return new RetryAfterResult(Optional.empty(), Optional.empty(), Optional.empty(), List.of(note));
  }
}
