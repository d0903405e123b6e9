package dev.sluice.store.sqlite;

import static dev.sluice.store.sqlite.Fixtures.transfer;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.core.journal.ActionRecord;
import dev.sluice.core.journal.JournalException;
import dev.sluice.store.sqlite.internal.Database;
import dev.sluice.store.sqlite.internal.Migrations;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MigrationTest {
  @TempDir Path dataDir;

  Path db() {
    return dataDir.resolve(SqliteJournal.FILE_NAME);
  }

  List<String> query(String sql) throws SQLException {
    List<String> out = new ArrayList<>();
    try (Connection c = Database.dataSource(db(), Duration.ofSeconds(5)).getConnection();
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery(sql)) {
      while (rs.next()) {
        out.add(rs.getString(1));
      }
    }
    return out;
  }

  @Test
  void anEmptyDirectoryGetsTheDatabaseAtTheLatestSchema() throws Exception {
    Path nested = dataDir.resolve("not/yet/there");

    try (SqliteJournal j = SqliteJournal.open(nested)) {
      assertThat(j.file()).isEqualTo(nested.resolve("sluice.db"));
    }

    assertThat(nested.resolve("sluice.db")).exists();
    dataDir = nested;
    assertThat(query("SELECT version FROM " + Migrations.HISTORY_TABLE + " WHERE success = 1 ORDER BY installed_rank")).containsExactly("1", "2");
    assertThat(query("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name"))
        .containsExactly("actions", "attempts", "cancelled_tasks", "escalations", "schema_history", "scopes", "task_goals");
  }

  @Test
  void reopeningAppliesNothingAndKeepsTheData() throws Exception {
    ActionRecord r;
    try (SqliteJournal j = SqliteJournal.open(dataDir)) {
      r = j.recordAction(transfer("t", "k").build());
    }

    int applied = Migrations.apply(Database.dataSource(db(), Duration.ofSeconds(5)), db());
    try (SqliteJournal j = SqliteJournal.open(dataDir)) {
      assertThat(j.action(r.actionId())).contains(r);
    }

    assertThat(applied).isZero();
    assertThat(query("SELECT count(*) FROM " + Migrations.HISTORY_TABLE)).containsExactly("2");
  }

  @Test
  void aDatabaseFromANewerSluiceIsRefusedWithAClearMessage() throws Exception {
    SqliteJournal.open(dataDir).close();
    Path future = Files.createDirectories(dataDir.resolve("future-migrations"));
    Files.writeString(future.resolve("V3__from_a_newer_sluice.sql"), "ALTER TABLE actions ADD COLUMN tenant TEXT;");
    Flyway.configure()
        .dataSource(Database.dataSource(db(), Duration.ofSeconds(5)))
        .locations(Migrations.LOCATION, "filesystem:" + future)
        .table(Migrations.HISTORY_TABLE)
        .load()
        .migrate();

    assertThatThrownBy(() -> SqliteJournal.open(dataDir))
        .isInstanceOf(JournalException.class)
        .hasMessageContaining(db().toString())
        .hasMessageContaining("schema version 3, written by a newer Sluice")
        .hasMessageContaining("knows versions up to 2");
  }

  @Test
  void theDatabaseRunsInWalModeWithForeignKeysEnforced() throws Exception {
    try (SqliteJournal j = SqliteJournal.open(dataDir)) {
      assertThat(pragma(j, "PRAGMA journal_mode")).isEqualTo("wal");
      assertThat(pragma(j, "PRAGMA foreign_keys")).isEqualTo("1");
      assertThat(pragma(j, "PRAGMA busy_timeout")).isEqualTo("5000");
    }
  }

  @Test
  void aDataDirectoryThatCannotBeCreatedIsReportedByName() throws Exception {
    Path file = Files.writeString(dataDir.resolve("a-file"), "x");

    assertThatThrownBy(() -> SqliteJournal.open(file.resolve("sub")))
        .isInstanceOf(JournalException.class)
        .hasMessageContaining("cannot create the data directory")
        .hasMessageContaining("a-file");
  }

  static String pragma(SqliteJournal j, String sql) {
    return j.database().read("reading a pragma", c -> one(c, sql));
  }

  static String one(Connection c, String sql) throws SQLException {
    try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
      rs.next();
      return rs.getString(1);
    }
  }
}
