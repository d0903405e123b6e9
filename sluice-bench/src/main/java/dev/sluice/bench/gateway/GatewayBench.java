package dev.sluice.bench.gateway;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.sluice.core.policy.ListenAddress;
import dev.sluice.core.policy.PolicyLoader;
import dev.sluice.gateway.Gateway;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * {@code bench/run gateway [--quick]}: wrk at fixed concurrency against a trivial upstream (nginx
 * {@code return 200}, one worker) directly, through nginx {@code proxy_pass} (keep-alive upstream
 * pool), and through Sluice's gateway (started in this JVM, no journal, no rate: pure overhead),
 * all on loopback in one run. Then the same three at about half of Sluice's saturated rate (wrk's
 * Lua {@code delay()} per request) for the added latency. Every process it starts is stopped by
 * its PID. Prints the tables and writes {@code bench/results/gateway.json}.
 */
public final class GatewayBench {
  static final String NGINX = Stream.of("/usr/sbin/nginx", "/usr/bin/nginx").filter(p -> Files.isExecutable(Path.of(p))).findFirst()
      .orElse("nginx");
  static final String TOKEN = "bench-agent-token-not-a-secret";

  private GatewayBench() {}

  record Params(boolean quick, int connections, int threads, int seconds, int warmupSeconds, int proxyWorkers, Path out) {
    static Params parse(String[] args) {
      boolean quick = Arrays.asList(args).contains("--quick");
      int c = 32;
      int t = 2;
      int d = quick ? 5 : 15;
      int w = quick ? 4 : 10;
      int workers = 2;
      Path out = Path.of("bench", "results", "gateway.json");
      for (int i = 0; i < args.length; i++) {
        switch (args[i]) {
          case "--quick" -> { }
          case "--connections" -> c = Integer.parseInt(args[++i]);
          case "--threads" -> t = Integer.parseInt(args[++i]);
          case "--seconds" -> d = Integer.parseInt(args[++i]);
          case "--warmup" -> w = Integer.parseInt(args[++i]);
          case "--nginx-workers" -> workers = Integer.parseInt(args[++i]);
          case "--out" -> out = Path.of(args[++i]);
          default -> throw new IllegalArgumentException("unknown option '" + args[i] + "'; see bench/run --help");
        }
      }
      return new Params(quick, c, t, d, w, workers, out);
    }
  }

  record Target(String name, String url, Optional<String> header) {}

  record Row(String phase, String target, int connections, WrkResult r) {}

  public static void run(String[] args) throws Exception {
    Params p;
    try {
      p = Params.parse(args);
    } catch (RuntimeException e) {
      System.err.println("bench/run gateway: " + e.getMessage());
      System.exit(2);
      return;
    }
    long started = System.nanoTime();
    Path dir = Files.createTempDirectory("sluice-bench-gateway");
    int upPort = freePort();
    int proxyPort = freePort();
    System.out.printf(Locale.ROOT, "gateway: wrk -t%d -c%d, %d s per run (%d s warm-up), loopback; upstream nginx return 200 (1 worker); "
        + "nginx proxy %d worker(s); %d cores, Java %s%n", p.threads, p.connections, p.seconds, p.warmupSeconds, p.proxyWorkers,
        Runtime.getRuntime().availableProcessors(), Runtime.version());
    List<Row> rows = new ArrayList<>();
    double halfRate;
    double allocatedPerRequest = -1;
    try (Nginx upstream = Nginx.upstream(dir, upPort); Nginx proxy = Nginx.proxy(dir, proxyPort, upPort, p.proxyWorkers);
        Gateway gateway = startGateway(upPort)) {
      System.out.printf(Locale.ROOT, "  upstream nginx pid %d on :%d, proxy nginx pid %d on :%d, Sluice gateway on %s%n", upstream.pid(), upPort,
          proxy.pid(), proxyPort, gateway.uri());
      List<Target> targets = List.of(
          new Target("direct", "http://127.0.0.1:" + upPort + "/up/bench", Optional.empty()),
          new Target("nginx", "http://127.0.0.1:" + proxyPort + "/up/bench", Optional.empty()),
          new Target("sluice", gateway.uri() + "/up/bench", Optional.of("Authorization: Bearer " + TOKEN)));
      for (Target t : targets) {
        wrk(t, p.threads, p.connections, p.warmupSeconds, Optional.empty(), dir);
        long allocatedBefore = allocatedBytes();
        WrkResult r = wrk(t, p.threads, p.connections, p.seconds, Optional.empty(), dir);
        long allocated = allocatedBytes() - allocatedBefore;
        rows.add(new Row("saturation", t.name, p.connections, r));
        System.out.printf(Locale.ROOT, "  saturation %-7s %,10.0f req/s  p50 %7.3f ms  p99 %7.3f ms%n", t.name, r.requestsPerSecond(), r.p50Ms(), r.p99Ms());
        if (t.name.equals("sluice")) {
          // The gateway runs in this JVM (wrk and nginx do not): what this JVM allocated over the run, per request.
          // Unlike req/s on a shared 2-core machine this barely moves between runs, so it shows what a change saves.
          allocatedPerRequest = allocated / Math.max(1.0, r.requestsPerSecond() * p.seconds);
          System.out.printf(Locale.ROOT, "  sluice allocated %,.0f bytes per proxied request (all threads of the gateway's JVM)%n", allocatedPerRequest);
        }
      }
      halfRate = rows.stream().filter(r -> r.target.equals("sluice")).findFirst().orElseThrow().r.requestsPerSecond() / 2;
      int halfConnections = 16;
      int delayMs = (int) Math.max(1, Math.round(halfConnections * 1000.0 / halfRate));
      System.out.printf(Locale.ROOT, "  half of Sluice's saturation: %,.0f req/s, offered as %d connections each waiting %d ms between requests%n",
          halfRate, halfConnections, delayMs);
      for (Target t : targets) {
        WrkResult r = wrk(t, p.threads, halfConnections, p.seconds, Optional.of(delayMs), dir);
        rows.add(new Row("half", t.name, halfConnections, r));
        System.out.printf(Locale.ROOT, "  half       %-7s %,10.0f req/s  p50 %7.3f ms  p99 %7.3f ms%n", t.name, r.requestsPerSecond(), r.p50Ms(), r.p99Ms());
      }
    }
    printTables(rows);
    writeJson(p, rows, halfRate, allocatedPerRequest);
    System.out.println("wrote " + p.out);
    deleteTree(dir);
    System.out.printf(Locale.ROOT, "gateway: done in %.0f s%n", (System.nanoTime() - started) / 1e9);
  }

  private static Gateway startGateway(int upPort) {
    String yaml = """
        providers:
          up:
            base_url: http://127.0.0.1:%d
            scope: account:bench
            shared_scope: {max_concurrent_requests: 1024, max_delayed_requests: 100000}
            routes:
              - {method: GET, path: "/bench", class: read}
        agents:
          - {id: bench, token_env: BENCH_AGENT_TOKEN, providers: [up]}
        """.formatted(upPort);
    return Gateway.builder(PolicyLoader.parse(yaml, "bench-gateway.yaml"))
        .env(name -> name.equals("BENCH_AGENT_TOKEN") ? Optional.of(TOKEN) : Optional.empty())
        .listen(new ListenAddress("127.0.0.1", 0)).stopTimeout(Duration.ofSeconds(2)).start();
  }

  /** Bytes allocated so far by every thread of this JVM (virtual threads count on their carriers). */
  private static long allocatedBytes() {
    return ((com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean()).getTotalThreadAllocatedBytes();
  }

  private static WrkResult wrk(Target t, int threads, int connections, int seconds, Optional<Integer> delayMs, Path dir)
      throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>(List.of("wrk", "-t" + threads, "-c" + connections, "-d" + seconds + "s", "--latency", "--timeout", "10s"));
    t.header.ifPresent(h -> {
      cmd.add("-H");
      cmd.add(h);
    });
    if (delayMs.isPresent()) {
      Path script = dir.resolve("delay-" + delayMs.get() + ".lua");
      Files.writeString(script, "function delay()\n  return " + delayMs.get() + "\nend\n");
      cmd.add("-s");
      cmd.add(script.toString());
    }
    cmd.add(t.url);
    Process w = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    String out;
    try {
      out = new String(w.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      if (!w.waitFor(seconds + 30L, TimeUnit.SECONDS)) {
        throw new IOException("wrk did not finish: " + cmd);
      }
    } finally {
      if (w.isAlive()) {
        w.destroyForcibly();
      }
    }
    if (w.exitValue() != 0) {
      throw new IOException("wrk exited with " + w.exitValue() + ": " + out);
    }
    WrkResult r = WrkResult.parse(out);
    if (r.non2xx() > 0 || r.socketErrors() > 0) {
      System.out.printf(Locale.ROOT, "  note: %s had %d non-2xx answers and %d socket errors%n", t.name, r.non2xx(), r.socketErrors());
    }
    return r;
  }

  private static void printTables(List<Row> rows) {
    WrkResult direct = find(rows, "saturation", "direct");
    WrkResult nginx = find(rows, "saturation", "nginx");
    WrkResult sluice = find(rows, "saturation", "sluice");
    System.out.printf(Locale.ROOT, "%nSaturation (fixed concurrency)%n");
    System.out.printf(Locale.ROOT, "%-8s %12s %9s %9s %8s%n", "target", "req/s", "p50 ms", "p99 ms", "errors");
    for (Row r : rows) {
      if (r.phase.equals("saturation")) {
        System.out.printf(Locale.ROOT, "%-8s %,12.0f %9.3f %9.3f %8d%n", r.target, r.r.requestsPerSecond(), r.r.p50Ms(), r.r.p99Ms(),
            r.r.non2xx() + r.r.socketErrors());
      }
    }
    System.out.printf(Locale.ROOT, "Sluice / nginx throughput: %.3f   Sluice / direct: %.3f   nginx / direct: %.3f%n",
        sluice.requestsPerSecond() / nginx.requestsPerSecond(), sluice.requestsPerSecond() / direct.requestsPerSecond(),
        nginx.requestsPerSecond() / direct.requestsPerSecond());
    WrkResult hd = find(rows, "half", "direct");
    WrkResult hn = find(rows, "half", "nginx");
    WrkResult hs = find(rows, "half", "sluice");
    System.out.printf(Locale.ROOT, "%nAt about half of Sluice's saturation%n");
    System.out.printf(Locale.ROOT, "%-8s %12s %9s %9s%n", "target", "req/s", "p50 ms", "p99 ms");
    for (Row r : rows) {
      if (r.phase.equals("half")) {
        System.out.printf(Locale.ROOT, "%-8s %,12.0f %9.3f %9.3f%n", r.target, r.r.requestsPerSecond(), r.r.p50Ms(), r.r.p99Ms());
      }
    }
    System.out.printf(Locale.ROOT, "added p99: Sluice %.3f ms, nginx %.3f ms (over direct)%n", hs.p99Ms() - hd.p99Ms(), hn.p99Ms() - hd.p99Ms());
  }

  private static WrkResult find(List<Row> rows, String phase, String target) {
    return rows.stream().filter(r -> r.phase.equals(phase) && r.target.equals(target)).findFirst().orElseThrow().r;
  }

  private static void writeJson(Params p, List<Row> rows, double halfRate, double allocatedPerRequest) throws IOException {
    Map<String, Object> params = new LinkedHashMap<>();
    params.put("quick", p.quick);
    params.put("wrk_threads", p.threads);
    params.put("connections", p.connections);
    params.put("seconds", p.seconds);
    params.put("warmup_seconds", p.warmupSeconds);
    params.put("nginx_proxy_workers", p.proxyWorkers);
    params.put("half_rate_target", Math.round(halfRate));
    params.put("cores", Runtime.getRuntime().availableProcessors());
    params.put("java", Runtime.version().toString());
    params.put("date", Instant.now().toString());
    List<Map<String, Object>> out = new ArrayList<>();
    for (Row r : rows) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("phase", r.phase);
      m.put("target", r.target);
      m.put("connections", r.connections);
      m.put("requests_per_s", Math.round(r.r.requestsPerSecond()));
      m.put("p50_ms", r.r.p50Ms());
      m.put("p99_ms", r.r.p99Ms());
      m.put("errors", r.r.non2xx() + r.r.socketErrors());
      out.add(m);
    }
    Map<String, Object> ratios = new LinkedHashMap<>();
    WrkResult s = find(rows, "saturation", "sluice");
    ratios.put("sluice_over_nginx", s.requestsPerSecond() / find(rows, "saturation", "nginx").requestsPerSecond());
    ratios.put("sluice_over_direct", s.requestsPerSecond() / find(rows, "saturation", "direct").requestsPerSecond());
    ratios.put("added_p99_ms_at_half", find(rows, "half", "sluice").p99Ms() - find(rows, "half", "direct").p99Ms());
    ratios.put("sluice_allocated_bytes_per_request", Math.round(allocatedPerRequest));
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("params", params);
    json.put("rows", out);
    json.put("ratios", ratios);
    Files.createDirectories(p.out.toAbsolutePath().getParent());
    new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(p.out.toFile(), json);
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }

  private static void deleteTree(Path dir) throws IOException {
    try (Stream<Path> s = Files.walk(dir)) {
      for (Path f : s.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(f);
      }
    }
  }
}
