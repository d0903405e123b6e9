package dev.sluice.store.sqlite.internal;

import java.sql.Connection;
import java.sql.SQLException;

/** Work done inside one transaction on the journal's connection. */
@FunctionalInterface
public interface SqlWork<T> {
  T run(Connection connection) throws SQLException;
}
