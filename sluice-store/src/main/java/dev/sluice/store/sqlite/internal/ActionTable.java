package dev.sluice.store.sqlite.internal;

import static dev.sluice.store.sqlite.internal.Columns.micros;

import dev.sluice.core.engine.OutcomeCode;
import dev.sluice.core.engine.Priority;
import dev.sluice.core.policy.RequestClass;
import dev.sluice.core.scope.ScopeId;
import dev.sluice.core.journal.ActionId;
import dev.sluice.core.journal.ActionRecord;
import dev.sluice.core.journal.ActionState;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** SQL for the {@code actions} table. Every method runs inside a transaction of {@link Database}. */
public final class ActionTable {
  private static final String COLUMNS = "action_id, task_id, priority, provider, scope, route_template, method, target, request_class,"
      + " max_attempts, max_wait_micros, retry_statuses, headers, payload_digest, payload_size, payload, idempotency_key, external_reference,"
      + " provider_operation_id, state, created_at, due_at, updated_at, attempts_used, waited_micros, deadline, last_status, outcome, reason,"
      + " version";

  private ActionTable() {}

  public static void insert(Connection c, ActionRecord a) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement("INSERT INTO actions (" + COLUMNS + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?,"
        + " ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
      int i = 1;
      ps.setString(i++, a.actionId().value());
      ps.setString(i++, a.taskId());
      ps.setString(i++, a.priority().code());
      ps.setString(i++, a.scope().provider());
      ps.setString(i++, a.scope().scope());
      ps.setString(i++, a.routeTemplate());
      ps.setString(i++, a.method());
      ps.setString(i++, a.target());
      ps.setString(i++, a.requestClass().name());
      ps.setInt(i++, a.requestClass().maxAttempts());
      ps.setLong(i++, micros(a.requestClass().maxWait()));
      ps.setString(i++, Columns.statuses(a.requestClass().retryStatuses()));
      ps.setString(i++, Columns.headersJson(a.headers()));
      ps.setString(i++, a.payloadDigest());
      ps.setLong(i++, a.payloadSize());
      if (a.payloadKept()) {
        ps.setBytes(i++, a.payload());
      } else {
        ps.setNull(i++, Types.BLOB);
      }
      Columns.setText(ps, i++, a.idempotencyKey());
      Columns.setText(ps, i++, a.externalReference());
      Columns.setText(ps, i++, a.providerOperationId());
      ps.setString(i++, a.state().code());
      ps.setLong(i++, micros(a.createdAt()));
      ps.setLong(i++, micros(a.dueAt()));
      ps.setLong(i++, micros(a.updatedAt()));
      ps.setInt(i++, a.attemptsUsed());
      ps.setLong(i++, micros(a.waited()));
      Columns.setInstant(ps, i++, a.deadline());
      Columns.setInt(ps, i++, a.lastStatus());
      Columns.setText(ps, i++, a.outcome().map(OutcomeCode::code));
      Columns.setText(ps, i++, a.reason());
      ps.setLong(i, a.version());
      ps.executeUpdate();
    }
  }

  /**
   * Writes the fields a transition or an attempt may change, if the row is still at {@code
   * expectedVersion}.
   *
   * @return whether the row was updated
   */
  public static boolean update(Connection c, ActionRecord a, long expectedVersion) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement("UPDATE actions SET provider_operation_id = ?, state = ?, due_at = ?, updated_at = ?,"
        + " attempts_used = ?, waited_micros = ?, last_status = ?, outcome = ?, reason = ?, version = ? WHERE action_id = ? AND version = ?")) {
      int i = 1;
      Columns.setText(ps, i++, a.providerOperationId());
      ps.setString(i++, a.state().code());
      ps.setLong(i++, micros(a.dueAt()));
      ps.setLong(i++, micros(a.updatedAt()));
      ps.setInt(i++, a.attemptsUsed());
      ps.setLong(i++, micros(a.waited()));
      Columns.setInt(ps, i++, a.lastStatus());
      Columns.setText(ps, i++, a.outcome().map(OutcomeCode::code));
      Columns.setText(ps, i++, a.reason());
      ps.setLong(i++, a.version());
      ps.setString(i++, a.actionId().value());
      ps.setLong(i, expectedVersion);
      return ps.executeUpdate() == 1;
    }
  }

  public static Optional<ActionRecord> find(Connection c, ActionId id) throws SQLException {
    return one(c, "SELECT " + COLUMNS + " FROM actions WHERE action_id = ?", id.value());
  }

  public static Optional<ActionRecord> findByIdempotencyKey(Connection c, String provider, String key) throws SQLException {
    return one(c, "SELECT " + COLUMNS + " FROM actions WHERE provider = ? AND idempotency_key = ?", provider, key);
  }

  /** The method of the action, if it exists: read before a transaction to choose its durability. */
  public static Optional<String> method(Connection c, ActionId id) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement("SELECT method FROM actions WHERE action_id = ?")) {
      ps.setString(1, id.value());
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next() ? Optional.of(rs.getString(1)) : Optional.empty();
      }
    }
  }

  public static List<ActionRecord> inStates(Connection c, List<ActionState> states) throws SQLException {
    String marks = String.join(", ", states.stream().map(s -> "?").toList());
    try (PreparedStatement ps = c.prepareStatement("SELECT " + COLUMNS + " FROM actions WHERE state IN (" + marks + ")"
        + " ORDER BY due_at, created_at, action_id")) {
      for (int i = 0; i < states.size(); i++) {
        ps.setString(i + 1, states.get(i).code());
      }
      return all(ps);
    }
  }

  public static List<ActionRecord> ofTaskInStates(Connection c, String taskId, List<ActionState> states) throws SQLException {
    String marks = String.join(", ", states.stream().map(s -> "?").toList());
    try (PreparedStatement ps = c.prepareStatement("SELECT " + COLUMNS + " FROM actions WHERE task_id = ? AND state IN (" + marks + ")"
        + " ORDER BY created_at, action_id")) {
      ps.setString(1, taskId);
      for (int i = 0; i < states.size(); i++) {
        ps.setString(i + 2, states.get(i).code());
      }
      return all(ps);
    }
  }

  private static Optional<ActionRecord> one(Connection c, String sql, String... params) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(sql)) {
      for (int i = 0; i < params.length; i++) {
        ps.setString(i + 1, params[i]);
      }
      List<ActionRecord> rows = all(ps);
      return rows.isEmpty() ? Optional.empty() : Optional.of(rows.get(0));
    }
  }

  private static List<ActionRecord> all(PreparedStatement ps) throws SQLException {
    List<ActionRecord> out = new ArrayList<>();
    try (ResultSet rs = ps.executeQuery()) {
      while (rs.next()) {
        out.add(row(rs));
      }
    }
    return out;
  }

  private static ActionRecord row(ResultSet rs) throws SQLException {
    String id = rs.getString("action_id");
    try {
      byte[] payload = rs.getBytes("payload");
      boolean kept = payload != null;
      RequestClass cls = new RequestClass(rs.getString("request_class"), rs.getInt("max_attempts"), Columns.duration(rs.getLong("max_wait_micros")),
          Columns.statuses(rs.getString("retry_statuses")));
      return new ActionRecord(
          ActionId.of(id),
          rs.getString("task_id"),
          Priority.fromCode(rs.getString("priority")).orElseThrow(() -> bad("priority")),
          new ScopeId(rs.getString("provider"), rs.getString("scope")),
          rs.getString("route_template"),
          rs.getString("method"),
          rs.getString("target"),
          cls,
          Columns.headers(rs.getString("headers")),
          rs.getString("payload_digest"),
          rs.getLong("payload_size"),
          kept,
          kept ? payload : new byte[0],
          Columns.optionalText(rs, "idempotency_key"),
          Columns.optionalText(rs, "external_reference"),
          Columns.optionalText(rs, "provider_operation_id"),
          ActionState.fromCode(rs.getString("state")).orElseThrow(() -> bad("state")),
          Columns.instant(rs.getLong("created_at")),
          Columns.instant(rs.getLong("due_at")),
          Columns.instant(rs.getLong("updated_at")),
          rs.getInt("attempts_used"),
          Columns.duration(rs.getLong("waited_micros")),
          Columns.optionalInstant(rs, "deadline"),
          Columns.optionalInt(rs, "last_status"),
          outcome(rs.getString("outcome")),
          Columns.optionalText(rs, "reason"),
          rs.getLong("version"));
    } catch (IllegalArgumentException e) {
      throw new SQLException("action " + id + " has a row this build cannot read: " + e.getMessage(), e);
    }
  }

  private static Optional<OutcomeCode> outcome(String code) {
    return code == null ? Optional.empty() : Optional.of(OutcomeCode.fromCode(code).orElseThrow(() -> bad("outcome")));
  }

  private static IllegalArgumentException bad(String column) {
    return new IllegalArgumentException("unknown " + column + " value");
  }
}
