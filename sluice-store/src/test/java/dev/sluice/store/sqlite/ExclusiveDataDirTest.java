package dev.sluice.store.sqlite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.core.journal.JournalException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One Sluice per data_dir (review of the durable-actions merge): a second process on the same
 * directory would run restart recovery on the first one's writes in flight and resend them.
 */
class ExclusiveDataDirTest {
  @TempDir Path dir;

  @Test
  void aSecondExclusiveOpenIsRefusedUntilTheFirstCloses() {
    SqliteJournal first = SqliteJournal.openExclusive(dir);

    assertThatThrownBy(() -> SqliteJournal.openExclusive(dir))
        .isInstanceOf(JournalException.class)
        .hasMessageContaining("is in use by another Sluice")
        .hasMessageContaining(SqliteJournal.LOCK_FILE_NAME);

    first.close();
    try (SqliteJournal again = SqliteJournal.openExclusive(dir)) {
      assertThat(again.file()).isEqualTo(dir.resolve(SqliteJournal.FILE_NAME));
    }
  }
}
