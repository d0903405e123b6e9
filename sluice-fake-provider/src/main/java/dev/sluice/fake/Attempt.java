package dev.sluice.fake;

import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * One inbound attempt as the fake saw it: the ground truth tests count. Every request that reaches
 * the provider API is logged when it arrives (inspection API calls are not), so a request whose
 * connection was reset or dropped is still here.
 *
 * @param seq arrival order, from 1; equal to the attempt's position in {@link FakeProvider#attempts()}
 * @param arrivedAt arrival time on the fake's clock
 * @param method the HTTP method
 * @param path the request path
 * @param query the raw query string, empty when none
 * @param family the route family matched, or {@code ""} for an unknown path
 * @param scope the scope the request counted against (never a credential; see {@link ScopeBy})
 * @param idempotencyKey the {@code Idempotency-Key} sent, if any
 * @param task the {@code Sluice-Task} header sent, if any
 * @param status the status answered (also for a dropped or truncated answer: the status that was
 *     produced); 0 when no status was produced (reset, or still pending)
 * @param result what the client was given
 * @param faults the faults that struck this attempt, by config name, in the order applied
 * @param operationId the provider operation id of the write it performed (or replayed), if any
 * @param replayed whether the answer was an idempotent replay of a stored response
 */
public record Attempt(
    long seq,
    Instant arrivedAt,
    String method,
    String path,
    String query,
    String family,
    String scope,
    Optional<String> idempotencyKey,
    Optional<String> task,
    int status,
    Result result,
    List<String> faults,
    Optional<String> operationId,
    boolean replayed) {

  /** What the client was given. */
  public enum Result {
    /** Still being handled. */
    PENDING,
    /** A complete response. */
    ANSWERED,
    /** The connection was reset before the request was read. */
    RESET,
    /** The connection was closed without a response (commit-then-drop). */
    DROPPED,
    /** Headers and part of the body, then the connection closed. */
    TRUNCATED,
    /** The response could not be written (the client went away). */
    ABORTED;

    public String configName() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  public Attempt {
    Objects.requireNonNull(arrivedAt, "arrivedAt");
    Objects.requireNonNull(method, "method");
    Objects.requireNonNull(path, "path");
    Objects.requireNonNull(query, "query");
    Objects.requireNonNull(family, "family");
    Objects.requireNonNull(scope, "scope");
    Objects.requireNonNull(idempotencyKey, "idempotencyKey");
    Objects.requireNonNull(task, "task");
    Objects.requireNonNull(result, "result");
    faults = List.copyOf(faults);
    Objects.requireNonNull(operationId, "operationId");
  }
}
