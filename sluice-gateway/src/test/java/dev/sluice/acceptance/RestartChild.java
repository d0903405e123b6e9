package dev.sluice.acceptance;

import dev.sluice.core.Call;
import dev.sluice.core.Sluice;
import dev.sluice.core.engine.Outcome;
import dev.sluice.core.policy.PolicyLoader;
import dev.sluice.store.sqlite.SqliteJournal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Sluice in a JVM of its own, for {@link RestartAtTheFakeProviderTest}: {@code submit} sends one
 * transfer and reports its outcome; {@code halt-at-send} dies (as with SIGKILL, no shutdown hooks)
 * the moment the transport is handed the first attempt, i.e. after the attempt's start was
 * journaled and before a byte left; {@code resume} starts on the same data directory and reports
 * the outcome of every action it resumed. Output: one line per event on stdout.
 */
public final class RestartChild {
  private RestartChild() {}

  static String policy(Path dataDir, String baseUri) {
    return "data_dir: " + dataDir + "\n"
        + "providers:\n"
        + "  api:\n"
        + "    base_url: " + baseUri + "\n"
        + "    scope: account:acme\n"
        + "    idempotency_header: Idempotency-Key\n"
        + "    routes:\n"
        + "      - {method: POST, path: \"/v1/transfers\", class: idempotent_write,\n"
        + "         lookup: {method: GET, path: \"/v1/transfers?idempotency_key={idempotency_key}\"}}\n";
  }

  public static void main(String[] args) throws Exception {
    Path dataDir = Path.of(args[0]);
    String mode = args[2];
    Path yaml = dataDir.resolve("sluice.yaml");
    Files.createDirectories(dataDir);
    Files.writeString(yaml, policy(dataDir, args[1]));
    Call transfer = Call.builder("api", "POST", "/v1/transfers").task("payer").header("Content-Type", "application/json")
        .body("{\"amount\":12500,\"currency\":\"USD\"}").build();
    switch (mode) {
      case "submit" -> {
        try (Sluice sluice = Sluice.load(yaml)) {
          report(sluice.submit(transfer));
        }
      }
      case "halt-at-send" -> {
        SqliteJournal journal = SqliteJournal.open(dataDir);
        Sluice sluice = Sluice.builder().policy(PolicyLoader.load(yaml)).journal(journal).transport(attempt -> {
          Runtime.getRuntime().halt(137);
          return new CompletableFuture<>();
        }).build();
        sluice.submit(transfer).get(30, TimeUnit.SECONDS);
        System.out.println("NOT HALTED");
      }
      case "resume" -> {
        try (Sluice sluice = Sluice.load(yaml)) {
          System.out.println("RECOVERED " + sluice.recovered().size());
          for (CompletableFuture<Outcome> f : sluice.recovered().values()) {
            report(f);
          }
        }
      }
      default -> throw new IllegalArgumentException(mode);
    }
    System.out.flush();
    System.exit(0);
  }

  private static void report(CompletableFuture<Outcome> f) throws Exception {
    Outcome o = f.get(60, TimeUnit.SECONDS);
    System.out.println("OUTCOME " + o.outcome().code() + " reconciled=" + o.reconciled() + " attempts=" + o.attempts());
    System.out.flush();
  }
}
