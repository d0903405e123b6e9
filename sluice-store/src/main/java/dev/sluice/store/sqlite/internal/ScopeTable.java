package dev.sluice.store.sqlite.internal;

import dev.sluice.core.scope.ScopeRecord;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/** SQL for the {@code scopes} table. */
public final class ScopeTable {
  private ScopeTable() {}

  public static void upsert(Connection c, ScopeRecord r) throws SQLException {
    // INSERT ... ON CONFLICT ... DO UPDATE: the same statement PostgreSQL accepts.
    try (PreparedStatement ps = c.prepareStatement("INSERT INTO scopes (provider, scope, request_class, next_allowed_at, remaining,"
        + " reset_after_seconds, source) VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (provider, scope) DO UPDATE SET"
        + " request_class = excluded.request_class, next_allowed_at = excluded.next_allowed_at, remaining = excluded.remaining,"
        + " reset_after_seconds = excluded.reset_after_seconds, source = excluded.source")) {
      ps.setString(1, r.provider());
      ps.setString(2, r.scope());
      ps.setString(3, r.requestClass());
      Columns.setInstant(ps, 4, r.nextAllowedAt());
      Columns.setLong(ps, 5, r.remaining());
      Columns.setLong(ps, 6, r.resetAfterSeconds());
      ps.setString(7, r.source());
      ps.executeUpdate();
    }
  }

  public static List<ScopeRecord> all(Connection c) throws SQLException {
    List<ScopeRecord> out = new ArrayList<>();
    try (PreparedStatement ps = c.prepareStatement("SELECT provider, scope, request_class, next_allowed_at, remaining, reset_after_seconds,"
        + " source FROM scopes ORDER BY provider, scope");
        ResultSet rs = ps.executeQuery()) {
      while (rs.next()) {
        out.add(new ScopeRecord(rs.getString("provider"), rs.getString("scope"), rs.getString("request_class"),
            Columns.optionalInstant(rs, "next_allowed_at"), Columns.optionalLong(rs, "remaining"), Columns.optionalLong(rs, "reset_after_seconds"),
            rs.getString("source")));
      }
    }
    return out;
  }
}
