package dev.sluice.bench;

import dev.sluice.bench.quota.Percentile;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.sluice.core.policy.RequestClass;
import dev.sluice.core.scope.ScopeId;
import dev.sluice.core.journal.Journal;
import dev.sluice.core.journal.NewAction;
import dev.sluice.store.sqlite.SqliteJournal;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;

/**
 * Journal throughput: how many logical actions per second can be made durable before their first
 * send. A write action's row (idempotency key, payload) is committed with {@code
 * synchronous=FULL} (docs/decisions/0004-journal-sync-mode.md); a read action's with {@code
 * NORMAL}. Both run in the same process, one after the other, on the same disk, so their ratio is
 * the price of power-loss safety. Each cell uses a fresh database under {@code
 * sluice-bench/target} (a real disk: {@code /tmp} may be memory, where fsync costs nothing).
 */
final class JournalBench {
  private static final int[] WRITERS = {1, 8, 64};
  private static final byte[] PAYLOAD =
      "{\"source\":\"acct_17\",\"destination\":\"acct_42\",\"amount\":12500,\"currency\":\"USD\"}".getBytes(StandardCharsets.UTF_8);

  private JournalBench() {}

  record Row(String kind, String sync, int writers, long actions, double seconds, double perSecond, double p50Ms, double p99Ms) {}

  static void run(String[] args) throws Exception {
    boolean quick = Arrays.asList(args).contains("--quick");
    double seconds = quick ? 2 : 10;
    Path out = Path.of("bench", "results", "journal.json");
    for (int i = 0; i < args.length; i++) {
      if (args[i].equals("--seconds") && i + 1 < args.length) {
        seconds = Double.parseDouble(args[++i]);
      } else if (args[i].equals("--out") && i + 1 < args.length) {
        out = Path.of(args[++i]);
      }
    }
    Path work = Path.of("sluice-bench", "target", "journal-bench");
    List<Row> rows = new ArrayList<>();
    System.out.printf(Locale.ROOT, "journal: %.0f s per cell, %d cores, Java %s%n", seconds, Runtime.getRuntime().availableProcessors(),
        Runtime.version());
    System.out.printf(Locale.ROOT, "%-6s %-7s %8s %10s %12s %9s %9s%n", "kind", "sync", "writers", "actions", "actions/s", "p50 ms", "p99 ms");
    for (int writers : WRITERS) {
      for (boolean write : new boolean[] {true, false}) {
        Row r = cell(work, write, writers, seconds);
        rows.add(r);
        System.out.printf(Locale.ROOT, "%-6s %-7s %8d %10d %12.0f %9.3f %9.3f%n", r.kind, r.sync, r.writers, r.actions, r.perSecond, r.p50Ms, r.p99Ms);
      }
    }
    System.out.println();
    System.out.println("ratio durable write / read actions per second:");
    Map<String, Double> ratios = new LinkedHashMap<>();
    for (int writers : WRITERS) {
      double w = rows.stream().filter(r -> r.writers == writers && r.kind.equals("write")).findFirst().orElseThrow().perSecond;
      double rd = rows.stream().filter(r -> r.writers == writers && r.kind.equals("read")).findFirst().orElseThrow().perSecond;
      ratios.put(String.valueOf(writers), w / rd);
      System.out.printf(Locale.ROOT, "  %2d writers: %.3f%n", writers, w / rd);
    }
    System.out.println();
    System.out.println("group commit (raw SQLite with the journal's settings, synchronous=FULL; see GroupCommitProbe):");
    System.out.printf(Locale.ROOT, "%-10s %8s %10s %12s %9s %9s %7s%n", "commit", "writers", "actions", "actions/s", "p50 ms", "p99 ms", "group");
    List<Map<String, Object>> probe = new ArrayList<>();
    for (int writers : WRITERS) {
      for (boolean group : new boolean[] {false, true}) {
        Path dir = work.resolve("probe-" + (group ? "group-" : "single-") + writers);
        deleteTree(dir);
        Files.createDirectories(dir);
        GroupCommitProbe.Result r;
        try {
          r = GroupCommitProbe.run(dir.resolve("probe.db"), group, writers, seconds, PAYLOAD);
        } finally {
          deleteTree(dir);
        }
        double perSecond = r.actions() / r.seconds();
        System.out.printf(Locale.ROOT, "%-10s %8d %10d %12.0f %9.3f %9.3f %7.1f%n", group ? "group" : "per-commit", writers, r.actions(), perSecond,
            r.p50Ms(), r.p99Ms(), r.meanGroup());
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("commit", group ? "group" : "per-commit");
        m.put("sync", "FULL");
        m.put("writers", writers);
        m.put("actions", r.actions());
        m.put("actions_per_second", Math.round(perSecond));
        m.put("p50_ms", r.p50Ms());
        m.put("p99_ms", r.p99Ms());
        m.put("mean_group", Math.round(r.meanGroup() * 10) / 10.0);
        probe.add(m);
      }
    }
    Map<String, Object> json = new LinkedHashMap<>();
    Map<String, Object> params = new LinkedHashMap<>();
    params.put("seconds_per_cell", seconds);
    params.put("writers", WRITERS);
    params.put("payload_bytes", PAYLOAD.length);
    params.put("cores", Runtime.getRuntime().availableProcessors());
    params.put("java", Runtime.version().toString());
    params.put("date", Instant.now().toString());
    params.put("quick", quick);
    json.put("params", params);
    json.put("rows", rows.stream().map(r -> {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("kind", r.kind);
      m.put("sync", r.sync);
      m.put("writers", r.writers);
      m.put("actions", r.actions);
      m.put("seconds", r.seconds);
      m.put("actions_per_second", Math.round(r.perSecond));
      m.put("p50_ms", r.p50Ms);
      m.put("p99_ms", r.p99Ms);
      return m;
    }).toList());
    json.put("write_to_read_ratio", ratios);
    json.put("group_commit_probe", probe);
    Files.createDirectories(out.toAbsolutePath().getParent());
    new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(out.toFile(), json);
    System.out.println("wrote " + out);
  }

  private static Row cell(Path work, boolean write, int writers, double seconds) throws Exception {
    Path dir = work.resolve((write ? "write-" : "read-") + writers);
    deleteTree(dir);
    Files.createDirectories(dir);
    try (Journal journal = SqliteJournal.open(dir)) {
      ScopeId scope = new ScopeId("bench-api", "account:bench");
      long[][] latencies = new long[writers][];
      int[] counts = new int[writers];
      AtomicBoolean stop = new AtomicBoolean();
      CountDownLatch start = new CountDownLatch(1);
      List<Thread> threads = new ArrayList<>();
      for (int t = 0; t < writers; t++) {
        int id = t;
        latencies[t] = new long[1 << 12];
        threads.add(Thread.ofPlatform().start(() -> {
          try {
            start.await();
          } catch (InterruptedException e) {
            return;
          }
          long n = 0;
          while (!stop.get()) {
            NewAction a = write
                ? NewAction.builder("task-" + id, scope, "POST", "/v1/transfers", "/v1/transfers", RequestClass.SEED_IDEMPOTENT_WRITE, Instant.now())
                    .payload(PAYLOAD).idempotencyKey("bench-" + id + "-" + n).build()
                : NewAction.builder("task-" + id, scope, "GET", "/v1/invoices/{id}", "/v1/invoices/inv_" + n, RequestClass.SEED_READ, Instant.now())
                    .build();
            long t0 = System.nanoTime();
            journal.recordAction(a);
            long dt = System.nanoTime() - t0;
            if (counts[id] == latencies[id].length) {
              latencies[id] = Arrays.copyOf(latencies[id], latencies[id].length * 2);
            }
            latencies[id][counts[id]++] = dt;
            n++;
          }
        }));
      }
      long begin = System.nanoTime();
      start.countDown();
      Thread.sleep((long) (seconds * 1000)); // the measurement window of a load harness, not a test wait
      stop.set(true);
      for (Thread th : threads) {
        th.join();
      }
      double elapsed = (System.nanoTime() - begin) / 1e9;
      long[] all = Percentile.merged(latencies, counts);
      long total = all.length;
      double p50 = Percentile.of(all, 0.50) / 1e6;
      double p99 = Percentile.of(all, 0.99) / 1e6;
      return new Row(write ? "write" : "read", write ? "FULL" : "NORMAL", writers, total, elapsed, total / elapsed, p50, p99);
    } finally {
      deleteTree(dir);
    }
  }

  private static void deleteTree(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> s = Files.walk(dir)) {
      for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }
}
