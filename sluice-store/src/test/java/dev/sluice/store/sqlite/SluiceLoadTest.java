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
}
