package dev.sluice.store.sqlite.internal;

import dev.sluice.core.escalation.Decision;
import dev.sluice.core.escalation.DecisionOption;
import dev.sluice.core.escalation.EscalationId;
import dev.sluice.core.escalation.EscalationState;
import dev.sluice.core.escalation.Trigger;
import dev.sluice.core.journal.ActionId;
import dev.sluice.core.journal.EscalationRecord;
import dev.sluice.core.journal.NewEscalation;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** SQL for the {@code escalations} and {@code task_goals} tables. */
public final class EscalationTable {
  private static final String COLUMNS = "escalation_id, action_id, trigger_code, detail, state, created_at, options, decision_option, decided_by,"
      + " decision_reason, decision_confirmed, decided_at";

  private EscalationTable() {}

  public static Optional<EscalationRecord> openOf(Connection c, ActionId action) throws SQLException {
    return one(c, "SELECT " + COLUMNS + " FROM escalations WHERE action_id = ? AND state = 'open'", action.value());
  }

  public static EscalationRecord insert(Connection c, NewEscalation e) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(
        "INSERT INTO escalations (action_id, trigger_code, detail, state, created_at, options) VALUES (?, ?, ?, 'open', ?, ?)")) {
      ps.setString(1, e.actionId().value());
      ps.setString(2, e.trigger().code());
      ps.setString(3, e.detail());
      ps.setLong(4, Columns.micros(e.createdAt()));
      ps.setString(5, String.join(",", e.options().stream().map(DecisionOption::code).toList()));
      ps.executeUpdate();
    }
    long id;
    try (PreparedStatement ps = c.prepareStatement("SELECT last_insert_rowid()"); ResultSet rs = ps.executeQuery()) {
      rs.next();
      id = rs.getLong(1);
    }
    return find(c, new EscalationId(id)).orElseThrow();
  }

  public static Optional<EscalationRecord> find(Connection c, EscalationId id) throws SQLException {
    return one(c, "SELECT " + COLUMNS + " FROM escalations WHERE escalation_id = ?", id.number());
  }

  public static List<EscalationRecord> all(Connection c) throws SQLException {
    List<EscalationRecord> out = new ArrayList<>();
    try (PreparedStatement ps = c.prepareStatement("SELECT " + COLUMNS + " FROM escalations ORDER BY escalation_id");
        ResultSet rs = ps.executeQuery()) {
      while (rs.next()) {
        out.add(read(rs));
      }
    }
    return out;
  }

  /** Open → decided; false when it was no longer open. */
  public static boolean decide(Connection c, EscalationId id, Decision d) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement("UPDATE escalations SET state = 'decided', decision_option = ?, decided_by = ?,"
        + " decision_reason = ?, decision_confirmed = ?, decided_at = ? WHERE escalation_id = ? AND state = 'open'")) {
      ps.setString(1, d.option().code());
      ps.setString(2, d.by());
      ps.setString(3, d.reason());
      ps.setInt(4, d.confirmation() ? 1 : 0);
      ps.setLong(5, Columns.micros(d.at()));
      ps.setLong(6, id.number());
      return ps.executeUpdate() == 1;
    }
  }

  public static void insertGoal(Connection c, String taskId, String goal) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement("INSERT OR IGNORE INTO task_goals (task_id, goal) VALUES (?, ?)")) {
      ps.setString(1, taskId);
      ps.setString(2, goal);
      ps.executeUpdate();
    }
  }

  public static Optional<String> goal(Connection c, String taskId) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement("SELECT goal FROM task_goals WHERE task_id = ?")) {
      ps.setString(1, taskId);
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next() ? Optional.of(rs.getString(1)) : Optional.empty();
      }
    }
  }

  private static Optional<EscalationRecord> one(Connection c, String sql, Object key) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(sql)) {
      ps.setObject(1, key);
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next() ? Optional.of(read(rs)) : Optional.empty();
      }
    }
  }

  private static EscalationRecord read(ResultSet rs) throws SQLException {
    EscalationId id = new EscalationId(rs.getLong("escalation_id"));
    String trigger = rs.getString("trigger_code");
    List<DecisionOption> options = new ArrayList<>();
    for (String code : rs.getString("options").split(",")) {
      if (!code.isEmpty()) {
        options.add(DecisionOption.fromCode(code).orElseThrow(() -> new SQLException("escalation " + id + " offers an unknown option '" + code + "'")));
      }
    }
    EscalationState state = "decided".equals(rs.getString("state")) ? EscalationState.DECIDED : EscalationState.OPEN;
    Optional<Decision> decision = Optional.empty();
    String chosen = rs.getString("decision_option");
    if (chosen != null) {
      decision = Optional.of(new Decision(DecisionOption.fromCode(chosen).orElseThrow(() -> new SQLException("unknown decision " + chosen)),
          rs.getString("decided_by"), rs.getString("decision_reason"), rs.getInt("decision_confirmed") == 1,
          Columns.instant(rs.getLong("decided_at"))));
    }
    return new EscalationRecord(id, ActionId.of(rs.getString("action_id")),
        Trigger.fromCode(trigger).orElseThrow(() -> new SQLException("escalation " + id + " has an unknown trigger '" + trigger + "'")),
        rs.getString("detail"), state, Columns.instant(rs.getLong("created_at")), options, decision);
  }
}
