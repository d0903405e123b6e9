package dev.sluice.core.retry;

import dev.sluice.core.classify.Verdict;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * What happens next to an action after one attempt, and why.
 *
 * @param action the next step
 * @param verdict the verdict on the attempt that led here
 * @param outcome the terminal outcome's code when {@code action} ends the action ({@code
 *     succeeded}, {@code budget_exhausted}, {@code client_error}, ...); empty for {@link
 *     Action#RETRY}
 * @param reason why, in a sentence an operator can read
 * @param range the interval the delay was drawn from, for {@link Action#RETRY}
 * @param delay the chosen delay, for {@link Action#RETRY}; always inside {@code range}
 * @param delaySource what set the delay: the server's header when it wins, else backoff
 * @param dueAt {@code now + delay}, for {@link Action#RETRY}
 * @param nextSafeAction what the agent (or a person) can safely do next
 */
public record RetryDecision(
    Action action,
    Verdict verdict,
    Optional<String> outcome,
    String reason,
    Optional<DelayRange> range,
    Optional<Duration> delay,
    Optional<DelaySource> delaySource,
    Optional<Instant> dueAt,
    String nextSafeAction) {

  /** The next step for the action. */
  public enum Action {
    /** Send again, with the same idempotency key, at {@code dueAt}. */
    RETRY,
    /** The outcome is unknown: look the action up before anything else is sent. */
    RECONCILE,
    /** The outcome is unknown and cannot be looked up: a person decides. */
    ESCALATE,
    /** The action is finished: succeeded, or failed terminally with an outcome. */
    DONE;

    public String code() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }
  }

  public RetryDecision {
    Objects.requireNonNull(action, "action");
    Objects.requireNonNull(verdict, "verdict");
    Objects.requireNonNull(outcome, "outcome");
    Objects.requireNonNull(reason, "reason");
    Objects.requireNonNull(range, "range");
    Objects.requireNonNull(delay, "delay");
    Objects.requireNonNull(delaySource, "delaySource");
    Objects.requireNonNull(dueAt, "dueAt");
    Objects.requireNonNull(nextSafeAction, "nextSafeAction");
    boolean retry = action == Action.RETRY;
    if (retry != delay.isPresent() || retry != range.isPresent() || retry != dueAt.isPresent() || retry != delaySource.isPresent()) {
      throw new IllegalArgumentException("a retry has a range, delay, source and due time; nothing else has");
    }
    if (retry == outcome.isPresent()) {
      throw new IllegalArgumentException("every decision but a retry names its outcome");
    }
    if (retry && !range.get().contains(delay.get())) {
      throw new IllegalArgumentException("delay " + delay.get() + " outside its range " + range.get());
    }
  }

  public boolean retryAllowed() {
    return action == Action.RETRY;
  }
}
