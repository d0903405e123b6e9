package dev.sluice.core.scope;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * The shared state of every known scope: one {@link ScopeRecord} per {@link ScopeId}, fed by every
 * response (DESIGN.md §3 rules 1–3). The engine publishes each response here <em>before</em> it
 * plans a retry, so every worker sees a 429 before anyone can send again.
 *
 * <p>Rules every implementation keeps:
 *
 * <ul>
 *   <li>A rate-limited response (429, or a GitHub-style 403) sets {@code next_allowed_at} to the
 *       later of its current value and {@code receivedAt +} the server's delay, else the reset of a
 *       request quota in its headers, else a minimum hold; {@code remaining} becomes 0 and {@code
 *       source} says why ({@code "HTTP 429 Retry-After"}).
 *   <li>Rate-limit headers on other responses update {@code remaining}, {@code
 *       reset_after_seconds}, {@code source} and the {@link LearnedQuota}, but never move {@code
 *       next_allowed_at} earlier: they never clear a 429. While a hold is in force they change
 *       only the learned quota. A request quota at 0 with a future reset holds the scope until the
 *       reset.
 *   <li>{@code next_allowed_at} only moves later.
 * </ul>
 *
 * <p>Implementations are thread-safe. The in-process one is {@link InMemoryScopeRegistry}; a
 * PostgreSQL-backed one (distributed mode) implements the same contract with row locks.
 */
public interface ScopeRegistry {

  /** Makes the scope known (so snapshots list it before any response), with no hold. Idempotent. */
  void register(ScopeId id, String requestClass);

  /** Publishes one response to its scope and returns the updated record. */
  ScopeRecord observe(ScopeId id, ResponseObservation observation);

  /** The scope's current record, if the scope is known. */
  Optional<ScopeRecord> record(ScopeId id);

  /** The request quota learned from headers, if any. */
  Optional<LearnedQuota> learnedQuota(ScopeId id);

  /** Every known scope's record, ordered by provider then scope. */
  List<ScopeRecord> snapshot();

  /** The instant before which nothing may be sent to the scope, if a hold was ever set. */
  default Optional<Instant> nextAllowedAt(ScopeId id) {
    return record(id).flatMap(ScopeRecord::nextAllowedAt);
  }
}
