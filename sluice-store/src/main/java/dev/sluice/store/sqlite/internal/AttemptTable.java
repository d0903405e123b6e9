package dev.sluice.store.sqlite.internal;

import static dev.sluice.store.sqlite.internal.Columns.micros;

import dev.sluice.core.classify.TransportFailure;
import dev.sluice.core.journal.ActionId;
import dev.sluice.core.journal.AttemptEnd;
import dev.sluice.core.journal.AttemptKind;
import dev.sluice.core.journal.AttemptRecord;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

/** SQL for the {@code attempts} table. Every method runs inside a transaction of {@link Database}. */
public final class AttemptTable {
  private static final String COLUMNS = "action_id, attempt_number, kind, started_at, idempotency_key_sent, finished_at, request_committed,"
      + " status, failure, rate_limit_headers";

  private AttemptTable() {}

  public static void insert(Connection c, AttemptRecord a) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement("INSERT INTO attempts (" + COLUMNS + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
      ps.setString(1, a.actionId().value());
      ps.setInt(2, a.number());
      ps.setString(3, a.kind().code());
      ps.setLong(4, micros(a.startedAt()));
      Columns.setText(ps, 5, a.idempotencyKeySent());
      bindEnd(ps, 6, a);
      ps.executeUpdate();
    }
  }

  /** Records the end of an open attempt; returns whether a still-open row was updated. */
  public static boolean finish(Connection c, AttemptRecord a) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement("UPDATE attempts SET finished_at = ?, request_committed = ?, status = ?, failure = ?,"
        + " rate_limit_headers = ? WHERE action_id = ? AND attempt_number = ? AND finished_at IS NULL")) {
      bindEnd(ps, 1, a);
      ps.setString(6, a.actionId().value());
      ps.setInt(7, a.number());
      return ps.executeUpdate() == 1;
    }
  }

  private static void bindEnd(PreparedStatement ps, int first, AttemptRecord a) throws SQLException {
    Columns.setInstant(ps, first, a.finishedAt());
    ps.setInt(first + 1, a.requestCommitted() ? 1 : 0);
    Optional<AttemptEnd> end = a.end();
    if (end.isPresent() && end.get() instanceof AttemptEnd.Response r) {
      ps.setInt(first + 2, r.status());
      ps.setNull(first + 3, Types.VARCHAR);
    } else {
      ps.setNull(first + 2, Types.INTEGER);
      ps.setString(first + 3, end.map(AttemptEnd::code).orElse(null));
    }
    ps.setString(first + 4, Columns.headersJson(a.rateLimitHeaders()));
  }

  public static List<AttemptRecord> ofAction(Connection c, ActionId id) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement("SELECT " + COLUMNS + " FROM attempts WHERE action_id = ? ORDER BY attempt_number")) {
      ps.setString(1, id.value());
      return all(ps);
    }
  }

  public static Optional<AttemptRecord> latest(Connection c, ActionId id) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement("SELECT " + COLUMNS + " FROM attempts WHERE action_id = ? ORDER BY attempt_number DESC"
        + " LIMIT 1")) {
      ps.setString(1, id.value());
      List<AttemptRecord> rows = all(ps);
      return rows.isEmpty() ? Optional.empty() : Optional.of(rows.get(0));
    }
  }

  public static Optional<AttemptRecord> find(Connection c, ActionId id, int number) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement("SELECT " + COLUMNS + " FROM attempts WHERE action_id = ? AND attempt_number = ?")) {
      ps.setString(1, id.value());
      ps.setInt(2, number);
      List<AttemptRecord> rows = all(ps);
      return rows.isEmpty() ? Optional.empty() : Optional.of(rows.get(0));
    }
  }

  private static List<AttemptRecord> all(PreparedStatement ps) throws SQLException {
    List<AttemptRecord> out = new ArrayList<>();
    try (ResultSet rs = ps.executeQuery()) {
      while (rs.next()) {
        out.add(row(rs));
      }
    }
    return out;
  }

  private static AttemptRecord row(ResultSet rs) throws SQLException {
    String id = rs.getString("action_id");
    int number = rs.getInt("attempt_number");
    try {
      var finishedAt = Columns.optionalInstant(rs, "finished_at");
      Optional<AttemptEnd> end = Optional.empty();
      if (finishedAt.isPresent()) {
        OptionalInt status = Columns.optionalInt(rs, "status");
        end = Optional.of(status.isPresent() ? AttemptEnd.response(status.getAsInt()) : failure(rs.getString("failure")));
      }
      return new AttemptRecord(
          ActionId.of(id),
          number,
          AttemptKind.fromCode(rs.getString("kind")).orElseThrow(() -> new IllegalArgumentException("unknown kind")),
          Columns.instant(rs.getLong("started_at")),
          Columns.optionalText(rs, "idempotency_key_sent"),
          finishedAt,
          end,
          Columns.headers(rs.getString("rate_limit_headers")));
    } catch (IllegalArgumentException e) {
      throw new SQLException("attempt " + number + " of action " + id + " has a row this build cannot read: " + e.getMessage(), e);
    }
  }

  private static AttemptEnd failure(String code) {
    if (AttemptEnd.Abandoned.CODE.equals(code)) {
      return AttemptEnd.abandoned();
    }
    for (TransportFailure f : TransportFailure.values()) {
      if (f.code().equals(code)) {
        return AttemptEnd.failed(f);
      }
    }
    throw new IllegalArgumentException("unknown failure code");
  }
}
