package dev.sluice.mcp.internal;

import dev.sluice.core.engine.Outcome;
import dev.sluice.core.engine.OutcomeCode;
import dev.sluice.core.escalation.Escalation;
import dev.sluice.core.escalation.Trigger;
import java.util.Locale;
import java.util.Optional;

/**
 * The short text a model reads with each result: what happened, the constraint it must respect, and
 * what not to do. The outcome's own reason and next safe action follow verbatim (the circuit
 * breaker's constraint reaches the model word for word).
 */
final class ModelText {
  private ModelText() {}

  static String done(Outcome o, String provider, String method, String path, Optional<String> scope, Optional<Escalation> escalation) {
    Optional<String> escalationId = escalation.filter(Escalation::open).map(e -> e.id().toString());
    boolean rejected = escalation.filter(e -> e.trigger() == Trigger.APPROVAL_REQUIRED && !e.open()).isPresent();
    String attempts = o.attempts() + " attempt" + (o.attempts() == 1 ? "" : "s");
    String waited = o.waitedSeconds() >= 0.5 ? String.format(Locale.ROOT, ", waited %.1f s in Sluice", o.waitedSeconds()) : "";
    String hold = o.nextAllowedAt().map(t -> " The scope " + scope.orElse(provider) + " is on hold until " + ResultMaps.time(t)
        + " for every agent on it: do not call " + provider + " again before then; do other work meanwhile.").orElse("");
    String status = o.lastStatus().isPresent() ? "HTTP " + o.lastStatus().getAsInt() : "no response";
    String head = switch (o.outcome()) {
      case SUCCEEDED -> o.reconciled()
          ? "Done: " + method + " " + path + " happened exactly once at " + provider + ". Its own answer was lost (the connection dropped after the provider"
              + " received it); Sluice looked it up by its idempotency key and found the provider's record (" + attempts + ", look-up included)."
              + " Do not send it again."
          : status + " from " + provider + " for " + method + " " + path + " (" + attempts + waited + ").";
      case RATE_LIMITED, BUDGET_EXHAUSTED -> (o.lastStatus().orElse(0) == 429 ? "Rate limited: " + provider + (o.attempts() > 1 ? " kept answering 429. " : " answered 429. ") : "Gave up: ")
          + (o.attempts() == 0 ? "nothing was sent" + waited : "Sluice made " + attempts + waited)
          + "; the request class's budget is used up." + hold + " Do not repeat this call in a loop.";
      case QUOTA_EXHAUSTED -> "The provider's quota is used up (" + status + ")." + hold + " Retrying before the reset cannot succeed.";
      case CIRCUIT_OPEN -> "Refused before sending: the same failure repeated on this call, and the circuit breaker stopped it. Do not rephrase and resend"
          + " it to get around the breaker; change what makes it fail, or stop and report.";
      case RECONCILIATION_REQUIRED, ESCALATED, OUTCOME_UNKNOWN -> "This write may already have happened at " + provider + ": it was sent and no answer"
          + " came back, and its result could not be established. Do not rephrase and resend: that could do it twice. "
          + escalationId.map(e -> "Escalation " + e + " is waiting for an operator; ").orElse("An operator must look it up; ")
          + "tell the user the write is pending a check.";
      case CLIENT_ERROR -> provider + " refused the request with " + status + "; repeating it unchanged cannot succeed. Read the response body, fix"
          + " the request, or stop.";
      case CONFLICT -> provider + " answered 409 Conflict: resolve the conflict the body describes before anything else; do not resend as is.";
      case REFUSED -> "Refused by Sluice before anything was sent. Fix the call; repeating it unchanged cannot succeed.";
      case CANCELLED -> rejected
          ? "Rejected: an operator did not approve " + method + " " + path + " (escalation " + escalation.get().id() + "); nothing was sent. Do not send it"
              + " again or another way; tell the user it was not approved."
          : "Cancelled: task " + taskName(o.taskId()) + " was cancelled" + (o.requestSent() ? " (an attempt may have reached the provider)"
              : ", nothing was sent") + "; Sluice will send nothing more for it.";
      case SCOPE_BACKPRESSURE -> "Refused at once, nothing sent: the scope's queue of waiting calls is full." + hold + " Do not loop on it.";
      case DEADLINE_EXCEEDED -> "The task's deadline came first (" + attempts + waited + ")." + hold;
      case REDIRECT_REFUSED -> provider + " answered with a redirect (" + status + "); Sluice does not follow redirects. Do not retry elsewhere.";
      default -> "Failed: " + o.outcome().code() + " (" + status + ", " + attempts + waited + ")." + hold + " Do not repeat it blindly.";
    };
    boolean named = o.outcome() == OutcomeCode.RECONCILIATION_REQUIRED || o.outcome() == OutcomeCode.ESCALATED
        || o.outcome() == OutcomeCode.OUTCOME_UNKNOWN;
    String handedOver = escalationId.isPresent() && !named && !o.succeeded()
        ? " Escalation " + escalationId.get() + " is waiting for an operator; do not rephrase and resend this call, and never under a new idempotency key."
        : "";
    return head + handedOver + "\nReason: " + o.reason() + "\nNext safe action: " + o.nextSafeAction();
  }

  /** A call held for an operator's approval: nothing sent, the model cannot approve it. */
  static String awaitingApproval(String actionId, String provider, String method, String path, Optional<String> escalationId) {
    return "Held for approval: " + method + " " + path + " at " + provider + " needs an operator's approval for each call, and nothing was sent."
        + escalationId.map(e -> " Escalation " + e + " is waiting for an operator.").orElse(" It is waiting for an operator.")
        + " You cannot approve it yourself, and sending it again or another way would not help: it will be sent once, if an operator approves."
        + " Tell the user an approval is pending, do other work, and call action_status with action_id " + actionId
        + " to see the outcome once it is decided.";
  }

  /** The agent's own name of an engine task id ({@code agent/task}). */
  static String taskName(String internal) {
    return dev.sluice.gateway.internal.TaskNames.split(internal).map(dev.sluice.gateway.internal.TaskNames.Owned::task).orElse(internal);
  }

  static String delayed(String actionId, String provider, String taskId, String phase, Optional<String> dueAt) {
    return "Not finished yet: Sluice holds this call (" + phase + ")" + dueAt.map(d -> " until " + d).orElse("") + ". It is queued and will be sent"
        + " once; do not send it again. Do other work and call action_status with action_id " + actionId + dueAt.map(d -> " after " + d).orElse("")
        + ", or cancel_task " + taskId + " to drop it.";
  }

  static String refused(String code, String message) {
    return "Refused by Sluice before anything was sent (" + code + "): " + message + "\nFix the call; repeating it unchanged cannot succeed.";
  }

  static boolean error(OutcomeCode code) {
    return code != OutcomeCode.SUCCEEDED;
  }
}
