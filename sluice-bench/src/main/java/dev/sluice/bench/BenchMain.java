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
                      Then the same durable commit without and with group commit on a raw SQLite
                      file with the journal's settings (what group commit would change).
                      options: --seconds N (per cell, default 10; --quick: 2), --out FILE
            quota     quota efficiency: K workers share one account at the fake provider (R req/s,
                      burst B, 429 + Retry-After, IETF RateLimit headers) and complete N logical
                      actions through each strategy in turn: naive retry, the OpenAI/Anthropic SDK
                      defaults, Resilience4j Retry + RateLimiter, Failsafe RetryPolicy, Sluice
                      embedded (with the published rate, and learning from headers) and Sluice
                      through the gateway (in-process, loopback). Counted at the
                      provider: attempts per action, 429s, failures, makespan / (N/R), p99, duplicates.
                      options: --r 50 --b 10 --k 20 --n 2000 (headline reads), --write-n N (default
                      N/4), --sweep 1,5,20,100|none --sweep-n 300, --reads | --writes (only that
                      kind), --out FILE, --chart FILE (default docs/img/quota-sweep.png)
                      --quick: N=100, 50 writes, sweep K=1,20 at N=50 (about a minute)
                      --diagnostic adds Sluice with its rate but without reading the headers;
                      --only NAME,NAME runs only those strategies (e.g. "sluice (rate),sluice-gateway").
            engine    JMH: permission decisions/s with no waiting (the engine's pacer, a whole
                      engine action) beside Resilience4j AtomicRateLimiter and a Bucket4j local
                      bucket, 1 and 2 threads; then enqueue and wake cost and heap per request
                      with 100,000 waiting. options: --waiting N, --queue-only, --out FILE
            gateway   wrk at fixed concurrency against nginx return 200 directly, through nginx
                      proxy_pass (keep-alive upstream) and through the Sluice gateway, all on
                      loopback; then at half of Sluice's saturation for the added p99. Installs
                      nginx and wrk with apt-get when missing. options: --connections 32
                      --threads 2 --seconds 15 --warmup 10 --nginx-workers 2 --out FILE

          Results: the table on stdout and bench/results/NAME.json.""");
      return;
    }
    String[] rest = Arrays.copyOfRange(args, 1, args.length);
    switch (args[0]) {
      case "journal" -> JournalBench.run(rest);
      case "quota" -> dev.sluice.bench.quota.QuotaBench.run(rest);
      case "engine" -> dev.sluice.bench.engine.EngineBench.run(rest);
      case "gateway" -> dev.sluice.bench.gateway.GatewayBench.run(rest);
      default -> {
        System.err.println("bench/run: unknown benchmark '" + args[0] + "'; try bench/run --help");
        System.exit(2);
      }
    }
  }
}
