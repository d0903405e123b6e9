package dev.sluice.bench.quota;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.sluice.fake.Dialect;
import dev.sluice.fake.FakeProvider;
import dev.sluice.fake.Quota;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code bench/run quota}: quota efficiency of each strategy, side by side in one run against one
 * fake provider (real sockets on loopback, in this JVM) that enforces R requests/s with burst B on
 * one account scope and answers 429 with {@code Retry-After} and IETF rate-limit headers.
 *
 * <p>Three parts, in this order: the headline reads (K workers, N actions), the headline writes
 * (through idempotency keys, N/5 actions by default so the default run stays under 10 minutes on 2
 * cores), and the K sweep on reads at a smaller N. The provider is reset before every strategy's
 * run. Output: the tables on stdout, {@code bench/results/quota.json}, and the sweep chart {@code
 * docs/img/quota-sweep.png}.
 */
public final class QuotaBench {
  private QuotaBench() {}

  /** The strategies, in table order; {@code --diagnostic} adds Sluice with its rate but without reading headers. */
  static List<Strategy> strategies(boolean diagnostic) {
    List<Strategy> all = new ArrayList<>(List.of(new NaiveStrategy(), new SdkDefaultStrategy(), new Resilience4jStrategy(), new FailsafeStrategy(),
        new SluiceEmbeddedStrategy(SluiceEmbeddedStrategy.Mode.RATE), new SluiceEmbeddedStrategy(SluiceEmbeddedStrategy.Mode.HEADERS),
        new SluiceGatewayStrategy()));
    if (diagnostic) {
      all.add(6, new SluiceEmbeddedStrategy(SluiceEmbeddedStrategy.Mode.RATE_NO_HEADERS));
    }
    return List.copyOf(all);
  }

  /** Parameters of a run, from the command line. */
  record Params(int rate, int burst, int k, int n, int writeN, int[] sweep, int sweepN, boolean reads, boolean writes, boolean quick,
      boolean diagnostic, java.util.Set<String> only, Path out, Path chart) {

    static Params parse(String[] args) {
      boolean quick = Arrays.asList(args).contains("--quick");
      int rate = 50;
      int burst = 10;
      int k = 20;
      int n = quick ? 100 : 2000;
      Integer writeN = null;
      int[] sweep = quick ? new int[] {1, 20} : new int[] {1, 5, 20, 100};
      int sweepN = quick ? 50 : 200;
      boolean diagnostic = false;
      java.util.Set<String> only = java.util.Set.of();
      boolean onlyReads = false;
      boolean onlyWrites = false;
      Path out = Path.of("bench", "results", "quota.json");
      Path chart = Path.of("docs", "img", "quota-sweep.png");
      for (int i = 0; i < args.length; i++) {
        String a = args[i];
        switch (a) {
          case "--quick" -> { }
          case "--reads" -> onlyReads = true;
          case "--diagnostic" -> diagnostic = true;
          case "--only" -> only = java.util.Set.of(value(a, args, ++i).split(","));
          case "--writes" -> onlyWrites = true;
          case "--r" -> rate = positive(a, args, ++i);
          case "--b" -> burst = positive(a, args, ++i);
          case "--k" -> k = positive(a, args, ++i);
          case "--n" -> n = positive(a, args, ++i);
          case "--write-n" -> writeN = positive(a, args, ++i);
          case "--sweep-n" -> sweepN = positive(a, args, ++i);
          case "--sweep" -> {
            String v = value(a, args, ++i);
            sweep = v.equals("none") ? new int[0] : Arrays.stream(v.split(",")).mapToInt(s -> positive(a, s.trim())).toArray();
          }
          case "--out" -> out = Path.of(value(a, args, ++i));
          case "--chart" -> chart = Path.of(value(a, args, ++i));
          default -> throw new IllegalArgumentException("unknown option '" + a + "'; see bench/run --help");
        }
      }
      if (burst > rate) {
        throw new IllegalArgumentException("--b must be at most --r (the fake's and Sluice's burst is at most the rate), got " + burst + " > " + rate);
      }
      boolean reads = !onlyWrites || onlyReads;
      boolean writes = !onlyReads || onlyWrites;
      return new Params(rate, burst, k, n, writeN != null ? writeN : Math.max(1, quick ? n / 2 : n / 5), sweep, sweepN, reads, writes,
          quick, diagnostic, only, out, chart);
    }

    private static String value(String opt, String[] args, int i) {
      if (i >= args.length) {
        throw new IllegalArgumentException(opt + " needs a value");
      }
      return args[i];
    }

    private static int positive(String opt, String[] args, int i) {
      return positive(opt, value(opt, args, i));
    }

    private static int positive(String opt, String v) {
      try {
        int x = Integer.parseInt(v);
        if (x > 0) {
          return x;
        }
      } catch (NumberFormatException e) {
        // reported below
      }
      throw new IllegalArgumentException(opt + " needs a positive integer, got '" + v + "'");
    }
  }

  public static void run(String[] args) throws Exception {
    Params p;
    try {
      p = Params.parse(args);
    } catch (IllegalArgumentException e) {
      System.err.println("bench/run quota: " + e.getMessage());
      System.exit(2);
      return;
    }
    // Every attempt must be the strategy's own: no silent reconnect-and-resend inside the JDK client.
    System.setProperty("jdk.httpclient.disableRetryConnect", "true");
    System.setProperty("java.awt.headless", "true");
    List<Strategy> strategies = strategies(p.diagnostic).stream().filter(s -> p.only.isEmpty() || p.only.contains(s.name())).toList();
    if (strategies.isEmpty()) {
      System.err.println("bench/run quota: --only names no strategy; the names are " + strategies(true).stream().map(Strategy::name).toList());
      System.exit(2);
      return;
    }
    long started = System.nanoTime();
    System.out.printf(Locale.ROOT, "quota: R=%d/s burst %d, K=%d, N=%d reads, %d writes; sweep K=%s at N=%d; %d cores, Java %s%n", p.rate,
        p.burst, p.k, p.n, p.writeN, Arrays.toString(p.sweep), p.sweepN, Runtime.getRuntime().availableProcessors(), Runtime.version());
    for (Strategy s : strategies) {
      s.unavailable().ifPresent(why -> System.out.println("  skipped " + s.name() + ": " + why));
    }
    List<Row> rows = new ArrayList<>();
    List<Row> sweepRows = new ArrayList<>();
    try (FakeProvider fake = FakeProvider.builder().quota(Quota.perSecond(p.rate, p.burst)).dialect(Dialect.IETF).start()) {
      QuotaRun runner = new QuotaRun(fake, p.rate, p.burst);
      warmUp(runner, strategies);
      int run = 0;
      if (p.reads) {
        rows.addAll(part(runner, strategies, Kind.READS, p.k, p.n, "headline reads", run++));
      }
      if (p.writes) {
        rows.addAll(part(runner, strategies, Kind.WRITES, p.k, p.writeN, "headline writes (idempotency keys)", run++));
      }
      if (p.reads && p.sweep.length > 0) {
        for (int k : p.sweep) {
          sweepRows.addAll(part(runner, strategies, Kind.READS, k, p.sweepN, "sweep reads", run++));
        }
      }
    }
    rows.addAll(sweepRows);
    writeJson(p, rows, strategies);
    System.out.println("wrote " + p.out);
    if (!sweepRows.isEmpty()) {
      SweepChart.write(sweepRows, String.format(Locale.ROOT, "Quota sweep: %d reads, R=%d/s burst %d, fake provider on loopback (%s)", p.sweepN,
          p.rate, p.burst, Instant.now().toString().substring(0, 10)), p.chart);
      System.out.println("wrote " + p.chart);
    }
    System.out.printf(Locale.ROOT, "quota: done in %.0f s%n", (System.nanoTime() - started) / 1e9);
  }

  /** Runs every strategy briefly so the first measured one does not pay for class loading and JIT. */
  private static void warmUp(QuotaRun runner, List<Strategy> strategies) throws Exception {
    for (Strategy s : strategies) {
      if (s.unavailable().isEmpty()) {
        runner.run(s, Kind.READS, 2, 10, "warmup");
        runner.run(s, Kind.WRITES, 2, 10, "warmup-" + s.name().replaceAll("[^a-z0-9]", ""));
      }
    }
  }

  private static List<Row> part(QuotaRun runner, List<Strategy> strategies, Kind kind, int k, int n, String title, int run) throws Exception {
    System.out.printf(Locale.ROOT, "%n%s: K=%d, N=%d (ideal N/R shown as makespan ratio 1.00)%n", title, k, n);
    System.out.printf(Locale.ROOT, "%-21s %8s %8s %7s %9s %9s %9s %5s%n", "strategy", "attempts", "429s", "failed", "makespan", "p50 ms", "p99 ms",
        "dups");
    System.out.printf(Locale.ROOT, "%-21s %8s %8s %7s %9s %9s %9s %5s%n", "", "/action", "", "", "/ (N/R)", "", "", "");
    List<Row> rows = new ArrayList<>();
    for (Strategy s : strategies) {
      if (s.unavailable().isPresent()) {
        System.out.printf(Locale.ROOT, "%-21s %s%n", s.name(), "not run: " + s.unavailable().get());
        continue;
      }
      String runId = "r" + run + "-" + s.name().replaceAll("[^a-z0-9]", "");
      Row r = runner.run(s, kind, k, n, runId);
      rows.add(r);
      System.out.printf(Locale.ROOT, "%-21s %8.3f %8d %7d %9.2f %9.0f %9.0f %5s%n", r.strategy(), r.amplification(), r.rateLimited(), r.failed(),
          r.makespanRatio(), r.p50Ms(), r.p99Ms(), kind == Kind.WRITES ? String.valueOf(r.duplicates()) : "-");
    }
    return rows;
  }

  private static void writeJson(Params p, List<Row> rows, List<Strategy> strategies) throws Exception {
    Map<String, Object> params = new LinkedHashMap<>();
    params.put("r", p.rate);
    params.put("b", p.burst);
    params.put("k", p.k);
    params.put("n", p.n);
    params.put("write_n", p.writeN);
    params.put("sweep_k", p.sweep);
    params.put("sweep_n", p.sweepN);
    params.put("quick", p.quick);
    params.put("cores", Runtime.getRuntime().availableProcessors());
    params.put("java", Runtime.version().toString());
    params.put("date", Instant.now().toString());
    params.put("provider", "sluice-fake-provider in the harness JVM, loopback, token bucket per scope, 429 + Retry-After (seconds), IETF RateLimit headers");
    Map<String, String> notRun = new LinkedHashMap<>();
    strategies.forEach(s -> s.unavailable().ifPresent(why -> notRun.put(s.name(), why)));
    params.put("not_run", notRun);
    List<Map<String, Object>> out = new ArrayList<>();
    for (Row r : rows) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("strategy", r.strategy());
      m.put("amplification", round(r.amplification(), 4));
      m.put("rate_limited", r.rateLimited());
      m.put("failed", r.failed());
      m.put("makespan_ratio", round(r.makespanRatio(), 4));
      m.put("p99_ms", round(r.p99Ms(), 1));
      m.put("p50_ms", round(r.p50Ms(), 1));
      m.put("duplicates", r.duplicates());
      m.put("k", r.k());
      m.put("n", r.n());
      m.put("kind", r.kind().label());
      out.add(m);
    }
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("params", params);
    json.put("rows", out);
    Files.createDirectories(p.out.toAbsolutePath().getParent());
    new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(p.out.toFile(), json);
  }

  private static double round(double v, int places) {
    double f = Math.pow(10, places);
    return Math.round(v * f) / f;
  }
}
