package dev.sluice.core.engine;

import dev.sluice.core.classify.AttemptResult;
import java.util.concurrent.CompletableFuture;

/**
 * Sends one attempt to the provider. The only place a credential is added, and the HTTP client
 * underneath never retries on its own: one call, at most one request on the wire.
 *
 * <p>Contract:
 *
 * <ul>
 *   <li>{@code send} returns promptly without blocking on the network (the engine calls it while
 *       holding its lock, so that no send can race a 429 just observed).
 *   <li>The future completes with a {@link AttemptResult.Response} or an {@link
 *       AttemptResult.Failure} saying whether bytes had left. Completing exceptionally is treated
 *       as an outcome unknown after send ({@code RESET_AFTER_SEND}); throwing from {@code send}
 *       itself as nothing sent ({@code CONNECT_FAILED}).
 *   <li>Cancelling the future (the engine does when a task is cancelled mid-flight) should abort
 *       the exchange; the engine frees the concurrency slot when the future completes.
 * </ul>
 */
@FunctionalInterface
public interface Transport {
  CompletableFuture<AttemptResult> send(AttemptRequest request);
}
