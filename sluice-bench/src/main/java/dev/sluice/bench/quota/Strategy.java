package dev.sluice.bench.quota;

import java.net.URI;
import java.util.Optional;

/**
 * One way of getting logical actions done against the rate-limited provider: a peer (what a user
 * would use instead of Sluice) or Sluice itself. {@link #open} makes a fresh client for one run, so
 * no connection pool, limiter or learnt state carries over from a run to the next.
 */
interface Strategy {
  /** The name in the table and the JSON. */
  String name();

  /** Why this strategy cannot run in this build, or empty when it can. */
  default Optional<String> unavailable() {
    return Optional.empty();
  }

  /** A fresh client for one run. */
  Client open(Setup setup) throws Exception;

  /**
   * What a strategy is told about the run: the provider's base URL and the quota it publishes.
   *
   * @param base the provider's base URL
   * @param rate published requests per second
   * @param burst published burst
   * @param workers concurrent workers that will share the client
   */
  record Setup(URI base, int rate, int burst, int workers) {}

  /** A client shared by the run's workers. */
  interface Client extends AutoCloseable {
    /**
     * Completes one logical action, retrying as the strategy does.
     *
     * @return true when the action succeeded in the end (a 2xx)
     */
    boolean perform(Action action) throws InterruptedException;

    @Override
    void close() throws Exception;
  }
}
