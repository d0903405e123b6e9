package dev.sluice.core.classify;

import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * Recognises a provider's quota exhaustion (a billing or daily limit, not a short burst limit)
 * from the status and a JSON pointer into the error body, e.g. OpenAI's
 * {@code 429 {"error":{"code":"insufficient_quota"}}}: status 429, pointer {@code /error/code},
 * value {@code insufficient_quota}, reset {@code billing}.
 *
 * @param status the HTTP status that must match
 * @param jsonPointer an RFC 6901 pointer into the JSON body
 * @param equalsValue the text the pointed-to value must equal (numbers and booleans compare by
 *     their JSON text)
 * @param reset when the quota comes back
 */
public record QuotaRule(int status, String jsonPointer, String equalsValue, ResetKind reset) {

  /** When an exhausted quota comes back. */
  public enum ResetKind {
    /** At the provider's next daily reset (next UTC midnight unless headers say otherwise). */
    DAILY,
    /** At the next billing period, or when someone raises the quota: a human decides. */
    BILLING,
    /** At the instant the provider's rate-limit headers give. */
    EXPLICIT;

    public String code() {
      return name().toLowerCase(Locale.ROOT);
    }

    /** Parses {@code daily|billing|explicit}. */
    public static Optional<ResetKind> fromCode(String code) {
      for (ResetKind k : values()) {
        if (k.code().equalsIgnoreCase(code)) {
          return Optional.of(k);
        }
      }
      return Optional.empty();
    }
  }

  public QuotaRule {
    if (status < 100 || status > 599) {
      throw new IllegalArgumentException("quota rule status must be 100..599, got " + status);
    }
    Objects.requireNonNull(jsonPointer, "jsonPointer");
    if (!jsonPointer.isEmpty() && !jsonPointer.startsWith("/")) {
      throw new IllegalArgumentException("quota rule json_pointer must be empty or start with '/', got '" + jsonPointer + "'");
    }
    Objects.requireNonNull(equalsValue, "equalsValue");
    Objects.requireNonNull(reset, "reset");
  }
}
