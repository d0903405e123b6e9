package dev.sluice.bench;

import dev.sluice.bench.quota.Percentile;
import dev.sluice.store.sqlite.internal.Database;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * What group commit would change, measured beside the journal in the same run: not the journal
 * (which commits one action per transaction), but a raw SQLite database opened with the journal's
 * own settings ({@link Database#dataSource}: WAL, {@code synchronous=FULL}, {@code fullfsync}) and
 * one table shaped like a write action's durable part (id, idempotency key unique, payload, time).
 *
 * <ul>
 *   <li><b>per-commit</b>: each writer's row is its own {@code BEGIN IMMEDIATE … COMMIT} on the one
 *       shared connection, as the journal does today: one WAL fsync per action.
 *   <li><b>group</b>: writers hand their row to one committer thread and wait; the committer takes
 *       every row waiting (up to 256), writes them in one transaction, commits (one fsync for the
 *       group) and only then releases their writers. Every action is still durable before its
 *       writer goes on, which is the property the journal must keep.
 * </ul>
 */
final class GroupCommitProbe {
  private GroupCommitProbe() {}

  record Result(long actions, double seconds, double p50Ms, double p99Ms, double meanGroup) {}

  private record Pending(String id, String key, byte[] payload, CompletableFuture<Void> done) {}

  static Result run(Path file, boolean group, int writers, double seconds, byte[] payload) throws Exception {
    try (Connection c = Database.dataSource(file, Duration.ofSeconds(10)).getConnection()) {
      try (Statement s = c.createStatement()) {
        s.execute("PRAGMA checkpoint_fullfsync = true");
        s.execute("CREATE TABLE action (id TEXT PRIMARY KEY, idempotency_key TEXT NOT NULL UNIQUE, payload BLOB NOT NULL, created_at TEXT NOT NULL)");
      }
      c.setAutoCommit(false);
      PreparedStatement insert = c.prepareStatement("INSERT INTO action (id, idempotency_key, payload, created_at) VALUES (?, ?, ?, ?)");
      Object lock = new Object();
      BlockingQueue<Pending> queue = new ArrayBlockingQueue<>(4096);
      AtomicBoolean stop = new AtomicBoolean();
      long[] groups = new long[2]; // commits, rows
      Thread committer = null;
      if (group) {
        committer = Thread.ofPlatform().name("group-committer").start(() -> {
          List<Pending> batch = new ArrayList<>(256);
          while (!stop.get() || !queue.isEmpty()) {
            try {
              Pending first = queue.poll(50, TimeUnit.MILLISECONDS);
              if (first == null) {
                continue;
              }
              batch.add(first);
              queue.drainTo(batch, 255);
              for (Pending p : batch) {
                bind(insert, p.id, p.key, p.payload);
                insert.executeUpdate();
              }
              c.commit();
              groups[0]++;
              groups[1] += batch.size();
              batch.forEach(p -> p.done.complete(null));
            } catch (InterruptedException e) {
              return;
            } catch (SQLException e) {
              batch.forEach(p -> p.done.completeExceptionally(e));
            }
            batch.clear();
          }
        });
      }
      long[][] latencies = new long[writers][];
      int[] counts = new int[writers];
      CountDownLatch start = new CountDownLatch(1);
      List<Thread> threads = new ArrayList<>();
      for (int t = 0; t < writers; t++) {
        int id = t;
        latencies[t] = new long[1 << 12];
        threads.add(Thread.ofPlatform().start(() -> {
          try {
            start.await();
            long n = 0;
            while (!stop.get()) {
              String key = "bench-" + id + "-" + n++;
              long t0 = System.nanoTime();
              if (group) {
                CompletableFuture<Void> done = new CompletableFuture<>();
                queue.put(new Pending("act_" + key, key, payload, done));
                done.join();
              } else {
                synchronized (lock) {
                  bind(insert, "act_" + key, key, payload);
                  insert.executeUpdate();
                  c.commit();
                }
              }
              long dt = System.nanoTime() - t0;
              if (counts[id] == latencies[id].length) {
                latencies[id] = Arrays.copyOf(latencies[id], latencies[id].length * 2);
              }
              latencies[id][counts[id]++] = dt;
            }
          } catch (InterruptedException | SQLException e) {
            throw new IllegalStateException(e);
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
      if (committer != null) {
        committer.join();
      }
      long[] all = Percentile.merged(latencies, counts);
      long total = all.length;
      double p50 = Percentile.of(all, 0.50) / 1e6;
      double p99 = Percentile.of(all, 0.99) / 1e6;
      long rows;
      try (Statement s = c.createStatement(); var rs = s.executeQuery("SELECT count(*) FROM action")) {
        rs.next();
        rows = rs.getLong(1);
      }
      if (rows != total) {
        throw new IllegalStateException("the probe's table holds " + rows + " rows, the writers counted " + total);
      }
      return new Result(total, elapsed, p50, p99, group ? groups[1] / (double) Math.max(1, groups[0]) : 1);
    }
  }

  private static void bind(PreparedStatement insert, String id, String key, byte[] payload) throws SQLException {
    insert.setString(1, id);
    insert.setString(2, key);
    insert.setBytes(3, payload);
    insert.setString(4, java.time.Instant.now().toString());
  }
}
