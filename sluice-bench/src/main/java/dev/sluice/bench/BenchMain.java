package dev.sluice.bench;

import java.util.Arrays;

/**
 * Entry point of {@code bench/run}: {@code bench/run NAME [--quick] [options]}. Each benchmark
 * prints its table and writes {@code bench/results/NAME.json}. Benchmarks compare side by side
 * within one run; absolute figures from different runs are not comparable on a shared machine.
 */
public final class BenchMain {
  private BenchMain() {}

  public static void main(String[] args) throws Exception {
    if (args.length == 0 || args[0].equals("--help") || args[0].equals("-h")) {
      System.out.println("""
          usage: bench/run NAME [--quick] [options]

          benchmarks:
            journal   durable write actions per second through the SQLite journal (key and payload
                      committed before the first send, synchronous=FULL), beside read actions
                      (synchronous=NORMAL), with 1, 8 and 64 concurrent writers.
                      options: --seconds N (per cell, default 10; --quick: 2), --out FILE

          Results: the table on stdout and bench/results/NAME.json.""");
      return;
    }
    String[] rest = Arrays.copyOfRange(args, 1, args.length);
    switch (args[0]) {
      case "journal" -> JournalBench.run(rest);
      default -> {
        System.err.println("bench/run: unknown benchmark '" + args[0] + "'; try bench/run --help");
        System.exit(2);
      }
    }
  }
}
