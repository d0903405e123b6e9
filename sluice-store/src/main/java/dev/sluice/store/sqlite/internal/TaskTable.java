package dev.sluice.store.sqlite.internal;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Optional;

/** SQL for the {@code cancelled_tasks} table. */
public final class TaskTable {
  private TaskTable() {}

  public static Optional<Instant> cancelledAt(Connection c, String taskId) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement("SELECT cancelled_at FROM cancelled_tasks WHERE task_id = ?")) {
      ps.setString(1, taskId);
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next() ? Optional.of(Columns.instant(rs.getLong(1))) : Optional.empty();
      }
    }
  }

  public static void insert(Connection c, String taskId, Instant at) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement("INSERT INTO cancelled_tasks (task_id, cancelled_at) VALUES (?, ?)")) {
      ps.setString(1, taskId);
      ps.setLong(2, Columns.micros(at));
      ps.executeUpdate();
    }
  }
}
