package dev.sluice.core.policy;

import dev.sluice.core.policy.internal.Syntax;
import java.math.BigDecimal;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;

/**
 * Recognises a provider's "quota exhausted" answer ({@code quota_exhausted[]}), which is waited out
 * until its reset rather than retried with burst backoff. Example: {@code {status: 429,
 * json_pointer: /error/code, equals: insufficient_quota, reset: daily}}.
 *
 * <p>A response matches when its status equals {@code status} and, if {@code json_pointer} is
 * given, the JSON body has a non-null value there that equals {@code equals} (numbers compare by
 * value, strings and booleans exactly); without {@code equals} the value only has to exist.
 *
 * @param status the HTTP status, 100–599
 * @param jsonPointer an RFC 6901 pointer into the JSON response body, optional
 * @param expected the value to compare with: a {@link String}, {@link BigDecimal} or {@link
 *     Boolean}; only with a pointer
 * @param reset when the quota comes back
 */
public record QuotaExhaustedMatcher(int status, Optional<String> jsonPointer, Optional<Object> expected, QuotaReset reset) {
  public QuotaExhaustedMatcher {
    Objects.requireNonNull(jsonPointer, "jsonPointer");
    Objects.requireNonNull(expected, "expected");
    Objects.requireNonNull(reset, "reset");
    if (status < 100 || status > 599) {
      throw new IllegalArgumentException("quota_exhausted.status must be an HTTP status 100-599, got " + status);
    }
    if (jsonPointer.isPresent() && !Syntax.isJsonPointer(jsonPointer.get())) {
      throw new IllegalArgumentException("quota_exhausted.json_pointer must be an RFC 6901 pointer such as /error/code, got '" + jsonPointer.get() + "'");
    }
    if (expected.isPresent() && jsonPointer.isEmpty()) {
      throw new IllegalArgumentException("quota_exhausted.equals needs a json_pointer to compare with");
    }
    expected.ifPresent(v -> {
      if (!(v instanceof String || v instanceof BigDecimal || v instanceof Boolean)) {
        throw new IllegalArgumentException("quota_exhausted.equals must be a string, number or boolean, got " + v.getClass().getSimpleName());
      }
    });
  }

  /** A matcher on status, a JSON pointer and the value expected there. */
  public static QuotaExhaustedMatcher of(int status, String jsonPointer, Object expected, QuotaReset reset) {
    return new QuotaExhaustedMatcher(status, Optional.of(jsonPointer), Optional.of(expected), reset);
  }

  /** How the matcher reads in messages: {@code 429 with /error/code = insufficient_quota}. */
  public String describe() {
    return status + jsonPointer.map(p -> " with " + p + expected.map(e -> " = " + e).orElse(" present")).orElse("");
  }

  /**
   * Whether a response matches.
   *
   * @param responseStatus the response's status
   * @param pointerValue resolves a JSON pointer in the response body to a {@link String}, {@link
   *     Number} or {@link Boolean}; empty when the body is not JSON, the pointer does not resolve,
   *     or the value is null (objects and arrays may be returned and then only satisfy "exists")
   */
  public boolean matches(int responseStatus, Function<String, Optional<Object>> pointerValue) {
    if (responseStatus != status) {
      return false;
    }
    if (jsonPointer.isEmpty()) {
      return true;
    }
    Optional<Object> found = pointerValue.apply(jsonPointer.get());
    if (found == null || found.isEmpty()) {
      return false;
    }
    if (expected.isEmpty()) {
      return true;
    }
    Object want = expected.get();
    Object got = found.get();
    if (want instanceof BigDecimal w && got instanceof Number n) {
      try {
        return w.compareTo(new BigDecimal(n.toString())) == 0;
      } catch (NumberFormatException e) {
        return false; // NaN or infinity can never equal a configured number
      }
    }
    return want.equals(got);
  }
}
