package dev.sluice.core.retry;

import dev.sluice.core.classify.Classification;
import dev.sluice.core.classify.Verdict;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.random.RandomGenerator;

/**
 * Decides what follows one attempt: retry at a due time, reconcile, escalate, or a terminal
 * outcome. Pure and deterministic for a given random source; no clock of its own.
 *
 * <p>The rules (DESIGN.md §3 rules 4, 5, 7, 8):
 *
 * <ul>
 *   <li>{@code success} ends the action ({@code succeeded}); {@code client_error}, {@code
 *       conflict}, {@code redirect_refused} and {@code quota_exhausted} end it with that outcome:
 *       repeating cannot help (quota exhaustion waits for its reset, not a burst backoff).
 *   <li>A write whose outcome is unknown (timeout, reset or truncated response after the bytes
 *       left) is never sent again automatically: {@code RECONCILE} when the route can be looked up
 *       or the provider honours the idempotency key that was sent, else {@code ESCALATE}. The same
 *       holds for a write that met a 5xx or 408 without an idempotency key: the provider may have
 *       acted before failing.
 *   <li>Otherwise a retry needs the status in the class's {@code retry_statuses} (a {@code
 *       rate_limited} verdict counts as {@code 429} whatever its status, e.g. GitHub's 403; for
 *       transport failures with no response: the class allowing more than one attempt), an attempt left
 *       ({@code attempt < max_attempts}) and wait budget left.
 *   <li>The delay is {@code max(server delay, uniform(0, min(max, base·2^n)))} with {@code n =
 *       attempt}: a server-given delay wins when longer. The jitter window is clamped to the wait
 *       budget left (the smaller of {@code max_wait - waited} and the time to the task's
 *       deadline); when the server's delay alone exceeds it, the action ends with {@code
 *       budget_exhausted} (or {@code deadline_exceeded}) and the reason.
 * </ul>
 */
public final class RetryPlanner {
  private final Backoff backoff;

  public RetryPlanner(Backoff backoff) {
    this.backoff = Objects.requireNonNull(backoff, "backoff");
  }

  public Backoff backoff() {
    return backoff;
  }

  /**
   * @param ctx the action and its budget
   * @param result the verdict on the attempt
   * @param serverDelay the delay the provider asked for, if any
   * @param random the jitter source
   */
  public RetryDecision decide(Classification result, RetryContext ctx, Optional<ServerDelay> serverDelay, RandomGenerator random) {
    Objects.requireNonNull(result, "result");
    Objects.requireNonNull(ctx, "ctx");
    Objects.requireNonNull(serverDelay, "serverDelay");
    Objects.requireNonNull(random, "random");
    Verdict v = result.verdict();
    return switch (v) {
      case SUCCESS -> done(v, "succeeded", result.reason(), "use the response");
      case CLIENT_ERROR -> done(v, "client_error", result.reason(),
          "correct the request or its authorization; repeating it unchanged cannot succeed");
      case CONFLICT -> done(v, "conflict", result.reason(),
          "look up the resource's current state and resolve the conflict before another write");
      case REDIRECT_REFUSED -> done(v, "redirect_refused", result.reason(),
          "call the final URL's provider directly if it is configured; Sluice does not follow redirects");
      case QUOTA_EXHAUSTED -> done(v, "quota_exhausted", result.reason(),
          "wait for the provider's " + result.quotaRule().orElseThrow().reset().configName() + " quota reset or raise the quota; a burst backoff cannot help");
      case OUTCOME_UNKNOWN -> ctx.write() ? uncertainWrite(v, result.reason(), ctx) : retryIfAllowed(result, ctx, serverDelay, random);
      case TIMEOUT_BEFORE_SEND, RESET_BEFORE_SEND -> retryIfAllowed(result, ctx, serverDelay, random);
      case UNAVAILABLE -> ctx.write() && !ctx.idempotencyKeySent()
          ? uncertainWrite(v, result.reason() + " to a write sent without an idempotency key: the provider may have acted", ctx)
          : retryIfAllowed(result, ctx, serverDelay, random);
      case RATE_LIMITED -> retryIfAllowed(result, ctx, serverDelay, random);
    };
  }

  private static RetryDecision uncertainWrite(Verdict v, String reason, RetryContext ctx) {
    if (ctx.lookupAvailable() || ctx.idempotencyKeySent()) {
      String how = ctx.lookupAvailable() ? "look the action up at the provider" : "resend only with the same idempotency key, which the provider deduplicates";
      return new RetryDecision(RetryDecision.Action.RECONCILE, v, Optional.of("reconciliation_required"),
          reason + "; a write is never sent again blindly", Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(),
          "reconcile: " + how + " before any new send");
    }
    return new RetryDecision(RetryDecision.Action.ESCALATE, v, Optional.of("escalated"),
        reason + "; the route has no idempotency key and no look-up, so no automated repeat is safe",
        Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(),
        "a person checks the provider's records, then decides: query existing, retry, cancel or send new");
  }

  private RetryDecision retryIfAllowed(Classification result, RetryContext ctx, Optional<ServerDelay> serverDelay,
      RandomGenerator random) {
    Verdict v = result.verdict();
    if (result.status().isEmpty()) {
      // Transport failures carry no status to look up in retry_statuses: any class that allows
      // more than one attempt may retry them (writes only reach here when nothing was sent).
      if (ctx.maxAttempts() <= 1) {
        return done(v, v.code(), result.reason() + "; class " + ctx.requestClass() + " allows a single attempt",
            v.requestSent() ? "check whether the provider acted before any new send" : "nothing reached the provider; the agent may try again later");
      }
    } else {
      int status = result.status().getAsInt();
      // A rate limit is a scheduling instruction whatever status carries it (GitHub answers its
      // limits with 403): the class's 429 entry says whether rate-limited work is retried.
      int listed = v == Verdict.RATE_LIMITED ? 429 : status;
      if (!ctx.retryStatuses().contains(listed)) {
        String what = listed == status ? String.valueOf(status) : "a rate limit (" + status + ", treated as 429)";
        return done(v, v.code(), result.reason() + "; " + what + " is not in class " + ctx.requestClass() + "'s retry_statuses",
            nextSafeFor(v));
      }
    }
    if (ctx.attempt() >= ctx.maxAttempts()) {
      return done(v, "budget_exhausted", result.reason() + "; all " + ctx.maxAttempts() + " attempts of class " + ctx.requestClass() + " are used",
          nextSafeFor(v));
    }
    Duration budgetLeft = ctx.maxWait().minus(ctx.waited());
    String budgetName = "wait budget";
    String exhausted = "budget_exhausted";
    if (ctx.deadline().isPresent()) {
      Duration toDeadline = Duration.between(ctx.now(), ctx.deadline().get());
      if (toDeadline.compareTo(budgetLeft) < 0) {
        budgetLeft = toDeadline;
        budgetName = "time to the task's deadline";
        exhausted = "deadline_exceeded";
      }
    }
    if (budgetLeft.isNegative()) {
      budgetLeft = Duration.ZERO;
    }
    Duration window = backoff.window(ctx.attempt());
    Duration server = serverDelay.map(ServerDelay::delay).orElse(Duration.ZERO);
    if (server.compareTo(budgetLeft) > 0) {
      ServerDelay s = serverDelay.orElseThrow();
      return done(v, exhausted, result.reason() + "; the provider asks to wait " + seconds(server) + " (" + s.header() + ") but only "
          + seconds(budgetLeft) + " of the " + budgetName + " are left", nextSafeFor(v));
    }
    if (budgetLeft.isZero()) {
      // A zero-wait retry would be the hot loop that backoff exists to prevent.
      return done(v, exhausted, result.reason() + "; the " + budgetName + " is used up (" + seconds(ctx.waited()) + " waited)", nextSafeFor(v));
    }
    Duration upper = window.compareTo(budgetLeft) > 0 ? budgetLeft : window;
    Duration jitter = Backoff.uniform(Duration.ZERO, upper, random);
    boolean serverWins = serverDelay.isPresent() && server.compareTo(upper) >= 0;
    DelayRange range = serverWins ? new DelayRange(server, server) : new DelayRange(server, upper);
    Duration delay = jitter.compareTo(server) >= 0 ? jitter : server;
    DelaySource source = serverDelay.isPresent() && (serverWins || delay.equals(server)) ? serverDelay.get().source() : DelaySource.BACKOFF;
    String why = result.reason() + "; retry " + ctx.attempt() + " of " + (ctx.maxAttempts() - 1) + " allowed by class " + ctx.requestClass();
    if (serverWins) {
      why += "; the provider's delay (" + serverDelay.get().header() + ") is at least the jitter window";
    } else if (serverDelay.isPresent()) {
      why += "; full jitter above the provider's minimum (" + serverDelay.get().header() + ")";
    } else {
      why += "; full jitter in [0, min(max, base·2^" + ctx.attempt() + ")]";
    }
    if (upper.compareTo(window) < 0 && !serverWins) {
      why += "; window clamped to the " + budgetName + " left (" + seconds(budgetLeft) + ")";
    }
    return new RetryDecision(RetryDecision.Action.RETRY, v, Optional.empty(), why, Optional.of(range), Optional.of(delay),
        Optional.of(source), Optional.of(ctx.now().plus(delay)), "wait until the due time; Sluice resends on its own");
  }

  private static String nextSafeFor(Verdict v) {
    return switch (v) {
      case RATE_LIMITED -> "wait for the scope's next_allowed_at, then try again as a new task, or reduce the request rate";
      case UNAVAILABLE -> "try again later; the provider could not serve the request";
      case OUTCOME_UNKNOWN -> "check whether the provider acted before any new send";
      default -> "nothing reached the provider; the agent may try again later";
    };
  }

  private static RetryDecision done(Verdict v, String outcome, String reason, String next) {
    return new RetryDecision(RetryDecision.Action.DONE, v, Optional.of(outcome), reason, Optional.empty(), Optional.empty(),
        Optional.empty(), Optional.empty(), next);
  }

  static String seconds(Duration d) {
    double s = d.toNanos() / 1e9;
    return (s == Math.rint(s) ? String.valueOf((long) s) : String.format(java.util.Locale.ROOT, "%.3f", s)) + " s";
  }
}
