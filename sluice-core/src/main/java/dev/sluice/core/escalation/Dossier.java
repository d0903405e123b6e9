package dev.sluice.core.escalation;

import dev.sluice.core.scope.ScopeRecord;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * The compact record a person decides from (DESIGN.md §3 rule 12), built from the journal's action
 * and attempt rows when asked for, so it always shows what the journal holds now. Secret-free by
 * construction: no header but {@code Retry-After} and the rate-limit fields, no credential, no
 * body — the body is summarised ({@link BodySummary}); seeing it is a separate, audited action.
 *
 * @param goal the task's stated goal ({@code Sluice-Task-Goal}, or {@code Call.Builder#goal})
 * @param actionId the journal id of the exact logical action that stopped
 * @param taskId its task
 * @param provider the provider id
 * @param scope the shared scope (account pool)
 * @param method the HTTP method
 * @param endpoint the configured route template, e.g. {@code /v1/transfers}
 * @param target the origin-form target that was (or would be) sent
 * @param requestClass the request class and its budget
 * @param fingerprint the redacted request fingerprint: method, route template and stable payload
 *     fields, hashed (never secrets, never variable headers)
 * @param state the action's journal state now
 * @param outcome its outcome code, when it stopped
 * @param reason why it stopped, in words
 * @param attempts every attempt: times, statuses, Retry-After and rate-limit headers
 * @param budget what was used of the budget
 * @param idempotencyKey the key every send carried
 * @param providerOperationId the provider's id for the operation, when a response named it
 * @param reconciliationQuery the look-up that finds the operation ({@code GET /v1/transfers?idempotency_key=…}), when the route has one
 * @param body the payload's summary
 * @param scopeState the scope's record when the dossier was built
 */
public record Dossier(
    Optional<String> goal,
    String actionId,
    String taskId,
    String provider,
    String scope,
    String method,
    String endpoint,
    String target,
    String requestClass,
    String fingerprint,
    String state,
    Optional<String> outcome,
    Optional<String> reason,
    List<AttemptSummary> attempts,
    Budget budget,
    Optional<String> idempotencyKey,
    Optional<String> providerOperationId,
    Optional<String> reconciliationQuery,
    BodySummary body,
    Optional<ScopeRecord> scopeState) {

  public Dossier {
    Objects.requireNonNull(goal, "goal");
    Objects.requireNonNull(actionId, "actionId");
    Objects.requireNonNull(taskId, "taskId");
    attempts = List.copyOf(attempts);
    Objects.requireNonNull(budget, "budget");
    Objects.requireNonNull(body, "body");
    Objects.requireNonNull(scopeState, "scopeState");
  }

  /**
   * One attempt as the operator sees it.
   *
   * @param number 1, 2, … within the action
   * @param kind {@code send} or {@code lookup}
   * @param startedAt when it was handed to the transport
   * @param finishedAt when it ended
   * @param status the HTTP status, when a response arrived
   * @param failure the transport failure ({@code read_timeout}, {@code reset_after_send}, …) or {@code abandoned}
   * @param requestCommitted whether its bytes may have reached the provider
   * @param rateLimitHeaders {@code Retry-After} and the rate-limit fields of the response, and only those
   */
  public record AttemptSummary(int number, String kind, Instant startedAt, Optional<Instant> finishedAt, OptionalInt status,
      Optional<String> failure, boolean requestCommitted, Map<String, List<String>> rateLimitHeaders) {
    public AttemptSummary {
      rateLimitHeaders = Map.copyOf(rateLimitHeaders);
    }
  }

  /**
   * The budget used.
   *
   * @param attemptsUsed sends that reached the transport (look-ups not included)
   * @param maxAttempts the class's {@code max_attempts}
   * @param waited time waited in Sluice
   * @param maxWait the class's {@code max_wait_seconds}
   * @param deadline the task's deadline
   */
  public record Budget(int attemptsUsed, int maxAttempts, Duration waited, Duration maxWait, Optional<Instant> deadline) {}

  /**
   * The body without its content.
   *
   * @param size bytes
   * @param sha256 lower-case hex SHA-256 of the whole body
   * @param topLevelFields the names of the top-level fields when the body is a JSON object (values never shown)
   * @param kept whether the journal kept the bytes (then an operator may view them, an audited action)
   */
  public record BodySummary(long size, String sha256, List<String> topLevelFields, boolean kept) {
    public BodySummary {
      topLevelFields = List.copyOf(topLevelFields);
    }
  }
}
