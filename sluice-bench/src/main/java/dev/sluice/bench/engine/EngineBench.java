package dev.sluice.bench.engine;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.runner.options.VerboseMode;

/**
 * {@code bench/run engine [--quick]}: {@link DecisionBenchmarks} with 1 and 2 threads in one JMH
 * run (one fork each; default 3 × 2 s warm-up and 5 × 2 s measurement per benchmark, {@code
 * --quick} 1 × 1 s and 3 × 1 s), then {@link QueueCost} with 100,000 waiting. Prints the tables
 * and writes {@code bench/results/engine.json}.
 */
public final class EngineBench {
  private EngineBench() {}

  record Row(String benchmark, int threads, double opsPerSecond, double error) {}

  public static void run(String[] args) throws Exception {
    boolean quick = Arrays.asList(args).contains("--quick");
    boolean jmh = !Arrays.asList(args).contains("--queue-only");
    int waiting = 100_000;
    Path out = Path.of("bench", "results", "engine.json");
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--quick", "--queue-only" -> { }
        case "--waiting" -> waiting = Integer.parseInt(args[++i]);
        case "--out" -> out = Path.of(args[++i]);
        default -> {
          System.err.println("bench/run engine: unknown option '" + args[i] + "'; see bench/run --help");
          System.exit(2);
        }
      }
    }
    long started = System.nanoTime();
    System.out.printf(Locale.ROOT, "engine: JMH, %d cores, Java %s%s%n", Runtime.getRuntime().availableProcessors(), Runtime.version(),
        quick ? " (--quick)" : "");
    List<Row> rows = new ArrayList<>();
    for (int threads : jmh ? new int[] {1, 2} : new int[0]) {
      ChainedOptionsBuilder o = new OptionsBuilder().include(DecisionBenchmarks.class.getName() + "\\.").threads(threads).forks(1)
          .jvmArgsAppend("-Xmx512m").verbosity(VerboseMode.SILENT).shouldFailOnError(true);
      if (quick) {
        o.warmupIterations(1).warmupTime(TimeValue.seconds(1)).measurementIterations(3).measurementTime(TimeValue.seconds(1));
      } else {
        o.warmupIterations(3).warmupTime(TimeValue.seconds(2)).measurementIterations(5).measurementTime(TimeValue.seconds(2));
      }
      System.out.printf(Locale.ROOT, "  running the decision benchmarks with %d thread(s)...%n", threads);
      Collection<RunResult> results = new Runner(o.build()).run();
      for (RunResult r : results) {
        String name = r.getParams().getBenchmark().replaceAll(".*\\.", "");
        rows.add(new Row(name, threads, r.getPrimaryResult().getScore(), r.getPrimaryResult().getScoreError()));
      }
    }
    rows.sort((a, b) -> a.threads != b.threads ? Integer.compare(a.threads, b.threads) : a.benchmark.compareTo(b.benchmark));
    System.out.printf(Locale.ROOT, "%nPermission decisions with no waiting (ops/s; ratio to Resilience4j at the same thread count)%n");
    System.out.printf(Locale.ROOT, "%-32s %7s %16s %12s %9s%n", "benchmark", "threads", "ops/s", "± (99.9%)", "/ r4j");
    for (Row r : rows) {
      double r4j = rows.stream().filter(x -> x.threads == r.threads && x.benchmark.startsWith("resilience4j")).findFirst().map(Row::opsPerSecond)
          .orElse(Double.NaN);
      System.out.printf(Locale.ROOT, "%-32s %7d %,16.0f %,12.0f %9.3f%n", r.benchmark, r.threads, r.opsPerSecond, r.error, r.opsPerSecond / r4j);
    }

    System.out.printf(Locale.ROOT, "%nDelayed requests with %,d waiting on one scope (engine on virtual time)...%n", waiting);
    QueueCost.Result q = QueueCost.measure(waiting, quick ? 2_000 : 10_000, quick ? 3 : 7);
    System.out.printf(Locale.ROOT, "%-34s %,12.0f ns%n", "enqueue (submit that must wait)", q.enqueueNanos());
    System.out.printf(Locale.ROOT, "%-34s %,12.0f ns%n", "wake + dispatch + complete", q.wakeNanos());
    System.out.printf(Locale.ROOT, "%-34s %,12.0f bytes%n", "heap per waiting request", q.heapBytesPerWaiting());

    Map<String, Object> params = new LinkedHashMap<>();
    params.put("quick", quick);
    params.put("cores", Runtime.getRuntime().availableProcessors());
    params.put("java", Runtime.version().toString());
    params.put("date", Instant.now().toString());
    params.put("jmh", "1 fork, " + (quick ? "1x1s warm-up, 3x1s measurement" : "3x2s warm-up, 5x2s measurement") + ", throughput");
    params.put("peers", "resilience4j-ratelimiter 2.4.0 AtomicRateLimiter, bucket4j_jdk17-core 8.14.0 local bucket");
    List<Map<String, Object>> decisions = new ArrayList<>();
    for (Row r : rows) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("benchmark", r.benchmark);
      m.put("threads", r.threads);
      m.put("ops_per_s", Math.round(r.opsPerSecond));
      m.put("error_99_9", Math.round(r.error));
      decisions.add(m);
    }
    Map<String, Object> queue = new LinkedHashMap<>();
    queue.put("waiting", q.waiting());
    queue.put("enqueue_ns", Math.round(q.enqueueNanos()));
    queue.put("wake_ns", Math.round(q.wakeNanos()));
    queue.put("heap_bytes_per_waiting", Math.round(q.heapBytesPerWaiting()));
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("params", params);
    json.put("decisions", decisions);
    json.put("queue", queue);
    Files.createDirectories(out.toAbsolutePath().getParent());
    new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(out.toFile(), json);
    System.out.println("wrote " + out);
    System.out.printf(Locale.ROOT, "engine: done in %.0f s%n", (System.nanoTime() - started) / 1e9);
  }
}
