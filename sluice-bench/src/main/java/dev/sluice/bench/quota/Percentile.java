package dev.sluice.bench.quota;

import java.util.Arrays;

/** Nearest-rank percentiles of latency samples. */
public final class Percentile {
  private Percentile() {}

  /**
   * The nearest-rank percentile: the smallest sample such that at least {@code p} of all samples
   * are at most it. 0 for no samples.
   *
   * @param samples any order; not modified
   * @param p in (0, 1]
   */
  public static long of(long[] samples, double p) {
    if (!(p > 0 && p <= 1)) {
      throw new IllegalArgumentException("p must be in (0, 1], got " + p);
    }
    if (samples.length == 0) {
      return 0;
    }
    long[] s = samples.clone();
    Arrays.sort(s);
    int rank = (int) Math.ceil(p * s.length);
    return s[Math.max(0, rank - 1)];
  }

  /** The samples of several writer threads in one array: thread {@code t} recorded {@code counts[t]} of {@code perThread[t]}. */
  public static long[] merged(long[][] perThread, int[] counts) {
    int total = 0;
    for (int n : counts) {
      total += n;
    }
    long[] all = new long[total];
    int k = 0;
    for (int t = 0; t < perThread.length; t++) {
      System.arraycopy(perThread[t], 0, all, k, counts[t]);
      k += counts[t];
    }
    return all;
  }
}
