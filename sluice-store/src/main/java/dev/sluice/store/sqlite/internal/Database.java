package dev.sluice.store.sqlite.internal;

import dev.sluice.core.journal.JournalException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.locks.ReentrantLock;
import org.sqlite.SQLiteConfig;
import org.sqlite.SQLiteDataSource;
import org.sqlite.SQLiteErrorCode;
import org.sqlite.SQLiteException;

/**
 * The journal's one connection and its transactions.
 *
 * <p>One connection, every transaction under one lock. SQLite allows one writer at a time anyway,
 * almost every journal call writes, and reads are rare (restart, operators), so a pool would only
 * add connections that wait on the same file lock. Transactions begin {@code IMMEDIATE}: the
 * write lock is taken up front, so a read-then-update (the compare-and-set) is atomic against
 * other processes too, and two connections never deadlock upgrading read locks.
 *
 * <p>{@code synchronous} cannot change inside a transaction, so it is set per transaction before
 * {@code BEGIN}, from the {@link Durability} the caller asks for.
 */
public final class Database implements AutoCloseable {
  private final Path file;
  private final Connection connection;
  private final ReentrantLock lock = new ReentrantLock();
  private Durability current;
  private boolean closed;

  private Database(Path file, Connection connection) {
    this.file = file;
    this.connection = connection;
  }

  /** The data source every connection to the journal uses, Flyway's included. */
  public static SQLiteDataSource dataSource(Path file, Duration busyTimeout) {
    SQLiteConfig config = new SQLiteConfig();
    config.setJournalMode(SQLiteConfig.JournalMode.WAL);
    config.setSynchronous(SQLiteConfig.SynchronousMode.FULL);
    config.setBusyTimeout((int) busyTimeout.toMillis());
    config.enforceForeignKeys(true);
    // macOS: plain fsync does not flush the drive's cache; F_FULLFSYNC does. Ignored elsewhere.
    config.setPragma(SQLiteConfig.Pragma.FULL_SYNC, "true");
    SQLiteDataSource ds = new SQLiteDataSource(config);
    ds.setUrl("jdbc:sqlite:" + file.toAbsolutePath());
    return ds;
  }

  public static Database open(Path file, Duration busyTimeout) {
    try {
      Connection c = dataSource(file, busyTimeout).getConnection();
      try (Statement s = c.createStatement()) {
        s.execute("PRAGMA checkpoint_fullfsync = true");
      }
      Database db = new Database(file, c);
      db.current = Durability.POWER_LOSS;
      return db;
    } catch (SQLException e) {
      throw new JournalException("cannot open the journal at " + file + ": " + e.getMessage(), e);
    }
  }

  /** Runs {@code work} in a write transaction whose commit is as durable as {@code durability}. */
  public <T> T write(String what, Durability durability, SqlWork<T> work) {
    lock.lock();
    try {
      ensureOpen();
      if (current != durability) {
        exec("PRAGMA synchronous = " + durability.pragma);
        current = durability;
      }
      return inTransaction(what, "BEGIN IMMEDIATE", work);
    } catch (SQLException e) {
      throw failure(what, e);
    } finally {
      lock.unlock();
    }
  }

  /** Runs {@code work} in a read transaction: a consistent snapshot across its statements. */
  public <T> T read(String what, SqlWork<T> work) {
    lock.lock();
    try {
      ensureOpen();
      return inTransaction(what, "BEGIN DEFERRED", work);
    } catch (SQLException e) {
      throw failure(what, e);
    } finally {
      lock.unlock();
    }
  }

  private <T> T inTransaction(String what, String begin, SqlWork<T> work) throws SQLException {
    exec(begin);
    boolean done = false;
    try {
      T result = work.run(connection);
      exec("COMMIT");
      done = true;
      return result;
    } finally {
      if (!done) {
        rollbackQuietly();
      }
    }
  }

  private void rollbackQuietly() {
    try {
      exec("ROLLBACK");
    } catch (SQLException ignored) {
      // SQLite may already have rolled back (e.g. after SQLITE_FULL); nothing more to undo.
    }
  }

  private void exec(String sql) throws SQLException {
    try (Statement s = connection.createStatement()) {
      s.execute(sql);
    }
  }

  private JournalException failure(String what, SQLException e) {
    // Extended codes (SQLITE_BUSY_SNAPSHOT, ...) keep the primary code in their low byte.
    boolean busy = e instanceof SQLiteException se && (se.getResultCode().code & 0xff) == SQLiteErrorCode.SQLITE_BUSY.code;
    String why = busy
        ? "the database stayed locked by another connection or process past the busy timeout"
        : e.getMessage();
    return new JournalException("journal at " + file + ": " + what + " failed: " + why, e);
  }

  private void ensureOpen() {
    if (closed) {
      throw new IllegalStateException("the journal at " + file + " is closed");
    }
  }

  public Path file() {
    return file;
  }

  @Override
  public void close() {
    lock.lock();
    try {
      if (closed) {
        return;
      }
      closed = true;
      connection.close();
    } catch (SQLException e) {
      throw new JournalException("journal at " + file + ": closing failed: " + e.getMessage(), e);
    } finally {
      lock.unlock();
    }
  }
}
