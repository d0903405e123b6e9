package dev.sluice.core.policy;

import dev.sluice.core.escalation.Trigger;
import java.net.URI;
import java.time.Duration;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The {@code escalation} block: which triggers hand an action to a person, the rate-limit
 * threshold that points at a configuration problem, and an optional webhook. Escalations need a
 * journal (they are stored there); without one nothing is escalated.
 *
 * @param triggers the triggers in force; default every one ({@link Trigger#APPROVAL_REQUIRED} is
 *     always in force on a route with {@code approval: per_call}, whatever this says)
 * @param rateLimitsPerHour more 429s than this within an hour on a scope whose {@code rate} is
 *     configured raise {@code repeated_rate_limits}; default 20
 * @param webhook where to POST each new escalation's JSON, if anywhere
 */
public record EscalationSettings(Set<Trigger> triggers, int rateLimitsPerHour, Optional<Webhook> webhook) {
  /** Every trigger, 20 rate limits per hour, no webhook. */
  public static final EscalationSettings DEFAULTS = new EscalationSettings(EnumSet.allOf(Trigger.class), 20, Optional.empty());

  public EscalationSettings {
    triggers = triggers.isEmpty() ? Set.of() : Set.copyOf(EnumSet.copyOf(triggers));
    if (rateLimitsPerHour < 1 || rateLimitsPerHour > 1_000_000) {
      throw new IllegalArgumentException("escalation.rate_limits_per_hour must be 1 to 1000000, got " + rateLimitsPerHour);
    }
    Objects.requireNonNull(webhook, "webhook");
  }

  /** Whether the trigger is in force. */
  public boolean enabled(Trigger t) {
    return t == Trigger.APPROVAL_REQUIRED || triggers.contains(t);
  }

  /** How the webhook's requests prove they come from Sluice. */
  public enum Signature {
    /** {@code Sluice-Signature: sha256=<hex HMAC-SHA256 of the body>} with the secret as key. */
    HMAC,
    /** {@code Authorization: Bearer <secret>}. */
    BEARER
  }

  /**
   * The escalation webhook ({@code escalation.webhook}).
   *
   * @param url http or https URL the JSON is POSTed to
   * @param secret where its secret is read from ({@code secret_env} / {@code secret_file}), if any
   * @param signature how the secret is used; default {@code hmac}
   * @param maxAttempts attempts per escalation, 1-10; default 3 (its own small budget: 5xx, 429 and
   *     connection failures are retried after 1 s, 2 s, …; nothing else is)
   * @param timeout per attempt; default 5 s
   */
  public record Webhook(URI url, Optional<SecretRef> secret, Signature signature, int maxAttempts, Duration timeout) {
    public Webhook {
      Objects.requireNonNull(url, "url");
      Objects.requireNonNull(secret, "secret");
      Objects.requireNonNull(signature, "signature");
      Objects.requireNonNull(timeout, "timeout");
      if (maxAttempts < 1 || maxAttempts > 10) {
        throw new IllegalArgumentException("escalation.webhook.max_attempts must be 1 to 10, got " + maxAttempts);
      }
    }
  }
}
