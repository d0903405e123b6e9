package dev.sluice.core.policy;

import java.util.Locale;

/** When an exhausted provider quota comes back ({@code quota_exhausted[].reset}). */
public enum QuotaReset {
  /** At the provider's daily reset. */
  DAILY,
  /** At the next billing period, or when someone adds credit: effectively an operator's matter. */
  BILLING,
  /** At the time the response itself says ({@code Retry-After} or rate-limit reset headers). */
  EXPLICIT;

  /** The name used in configuration: {@code daily}, {@code billing}, {@code explicit}. */
  public String configName() {
    return name().toLowerCase(Locale.ROOT);
  }
}
