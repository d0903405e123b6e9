package dev.sluice.core.classify;

import dev.sluice.core.policy.QuotaExhaustedMatcher;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * The verdict on one attempt, with the reason in words an operator can read.
 *
 * @param verdict what the response means
 * @param status the HTTP status, when a response arrived
 * @param reason why this verdict, e.g. {@code "429 Too Many Requests"} or {@code "403 with
 *     x-ratelimit-remaining: 0 (GitHub-style rate limit)"}
 * @param quotaRule the configured rule that recognised quota exhaustion, for {@link
 *     Verdict#QUOTA_EXHAUSTED}
 */
public record Classification(Verdict verdict, OptionalInt status, String reason, Optional<QuotaExhaustedMatcher> quotaRule) {
  public Classification {
    Objects.requireNonNull(verdict, "verdict");
    Objects.requireNonNull(status, "status");
    Objects.requireNonNull(reason, "reason");
    Objects.requireNonNull(quotaRule, "quotaRule");
    if (verdict == Verdict.QUOTA_EXHAUSTED && quotaRule.isEmpty()) {
      throw new IllegalArgumentException("a quota_exhausted verdict names the rule that matched");
    }
  }

  static Classification of(Verdict verdict, int status, String reason) {
    return new Classification(verdict, OptionalInt.of(status), reason, Optional.empty());
  }

  static Classification failure(Verdict verdict, String reason) {
    return new Classification(verdict, OptionalInt.empty(), reason, Optional.empty());
  }
}
