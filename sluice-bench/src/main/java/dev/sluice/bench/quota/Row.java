package dev.sluice.bench.quota;

/**
 * One strategy's result at one size, all counted at the fake provider except latency and failures.
 *
 * @param strategy the strategy's name
 * @param kind reads or writes
 * @param k concurrent workers
 * @param n logical actions
 * @param attempts requests the provider received (its attempt log)
 * @param rateLimited 429s the provider answered (its attempt log)
 * @param failed logical actions the strategy gave up on
 * @param makespanSeconds first action started to last action finished
 * @param idealSeconds the physical limit N/R
 * @param p50Ms median of one logical action's latency, start to final answer, waits included
 * @param p99Ms 99th percentile of one logical action's latency, start to final answer, waits included
 * @param duplicates writes: records at the provider beyond one per logical action (0 for reads)
 */
record Row(String strategy, Kind kind, int k, int n, long attempts, long rateLimited, long failed, double makespanSeconds,
    double idealSeconds, double p50Ms, double p99Ms, long duplicates) {

  /** Attempts per logical action. */
  double amplification() {
    return (double) attempts / n;
  }

  /** Makespan over the physical limit N/R. */
  double makespanRatio() {
    return makespanSeconds / idealSeconds;
  }
}
