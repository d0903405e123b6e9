package dev.sluice.store.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.core.Sluice;
import dev.sluice.core.policy.PolicyLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code Sluice.load} finds the SQLite journal through ServiceLoader and opens it in {@code data_dir}. */
class SluiceLoadTest {
  @Test
  void loadOpensTheEmbeddedJournalInTheDataDirectory(@TempDir Path dir) throws Exception {
    Path data = dir.resolve("data");
    Path file = dir.resolve("sluice.yaml");
    Files.writeString(file, "data_dir: " + data + "\nproviders:\n  open-api:\n    base_url: http://127.0.0.1:9\n");
    try (Sluice s = Sluice.load(file)) {
      assertThat(s.recovered()).isEmpty();
      assertThat(data.resolve(SqliteJournal.FILE_NAME)).exists();
    }
  }

  @Test
  void theFactoryLeavesADistributedStoreToAnotherImplementation() {
    var policy = PolicyLoader.parse("store: jdbc:postgresql://127.0.0.1:5432/sluice\nproviders:\n  a:\n    base_url: http://127.0.0.1:9\n", "p.yaml");
    assertThat(new SqliteJournalFactory().open(policy)).isEmpty();
  }

  @Test
  void aCallersCallbackMayCallSluiceAgainWithoutDeadlockingTheJournal(@TempDir Path dir) throws Exception {
    // Regression (review of the durable-actions merge): futures completed on the journal thread,
    // so cancel() from a callback waited on that same thread and every send stopped.
    var policy = PolicyLoader.parse("providers:\n  a:\n    base_url: http://127.0.0.1:9\n", "p.yaml");
    dev.sluice.core.engine.Transport ok = r -> java.util.concurrent.CompletableFuture.completedFuture(
        new dev.sluice.core.classify.AttemptResult.Response(201, dev.sluice.core.http.Headers.empty()));
    try (SqliteJournal journal = SqliteJournal.open(dir);
        Sluice s = Sluice.builder().policy(policy).journal(journal).transport(ok).build()) {
      var chained = s.submit(dev.sluice.core.Call.builder("a", "POST", "/x").task("t1").build())
          .thenApply(o -> s.cancel("another-task") >= 0 ? o : o);
      assertThat(chained.get(10, java.util.concurrent.TimeUnit.SECONDS).outcome()).isEqualTo(dev.sluice.core.engine.OutcomeCode.SUCCEEDED);
    }
  }

  @Test
  void aStartThatFailsAfterTheJournalOpenedReleasesTheDataDirectory(@TempDir Path dir) {
    Path data = dir.resolve("data");
    var policy = PolicyLoader.parse("data_dir: " + data + "\nproviders:\n  a:\n    base_url: http://127.0.0.1:9\n"
        + "    credential: {secret_env: SLUICE_TEST_SURELY_UNSET_SECRET}\n", "p.yaml");

    org.assertj.core.api.Assertions.assertThatThrownBy(() -> Sluice.builder().policy(policy).secrets(n -> java.util.Optional.empty())
            .journalFromPolicy().build())
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("SLUICE_TEST_SURELY_UNSET_SECRET");
    // The failed start closed its journal: the directory's lock is free again.
    SqliteJournal.openExclusive(data).close();
  }
}
