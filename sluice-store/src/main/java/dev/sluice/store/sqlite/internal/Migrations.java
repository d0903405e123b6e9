package dev.sluice.store.sqlite.internal;

import dev.sluice.core.journal.JournalException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Optional;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.FlywayException;
import org.flywaydb.core.api.MigrationInfo;
import org.flywaydb.core.api.MigrationState;
import org.flywaydb.core.api.output.MigrateResult;

/**
 * Brings the journal's schema to this build's version with Flyway's versioned SQL migrations
 * ({@code db/journal/sqlite/V1__journal.sql}, …): applied in order on an empty database, nothing
 * to do on a current one, and a clear refusal for a database written by a newer Sluice (Flyway on
 * its own ignores "future" migrations and would carry on).
 */
public final class Migrations {
  /** Where the SQLite migrations live on the classpath. */
  public static final String LOCATION = "classpath:db/journal/sqlite";
  /** Flyway's bookkeeping table inside the journal. */
  public static final String HISTORY_TABLE = "schema_history";

  private Migrations() {}

  /** The schema version this build writes, e.g. {@code 1}. */
  public static String latestKnownVersion(DataSource dataSource) {
    return Arrays.stream(flyway(dataSource).info().all())
        .filter(i -> i.getState() != MigrationState.FUTURE_SUCCESS && i.getState() != MigrationState.FUTURE_FAILED)
        .map(i -> i.getVersion().getVersion())
        .reduce((a, b) -> b)
        .orElse("none");
  }

  /**
   * Applies the pending migrations.
   *
   * @return how many were applied (0 on a current database)
   * @throws JournalException when the database is from a newer schema, a migration failed before,
   *     or an applied migration no longer matches this build's
   */
  public static int apply(DataSource dataSource, Path file) {
    Flyway flyway = flyway(dataSource);
    try {
      Optional<MigrationInfo> future = Arrays.stream(flyway.info().applied())
          .filter(i -> i.getState() == MigrationState.FUTURE_SUCCESS || i.getState() == MigrationState.FUTURE_FAILED)
          .reduce((a, b) -> b);
      if (future.isPresent()) {
        throw new JournalException("the journal at " + file + " has schema version " + future.get().getVersion() + ", written by a newer"
            + " Sluice; this build knows versions up to " + latestKnownVersion(dataSource) + ". Run the newer Sluice, or point data_dir"
            + " at another directory.");
      }
      MigrateResult result = flyway.migrate();
      return result.migrationsExecuted;
    } catch (FlywayException e) {
      throw new JournalException("the journal at " + file + " could not be brought to this build's schema: " + e.getMessage(), e);
    }
  }

  private static Flyway flyway(DataSource dataSource) {
    return Flyway.configure(Migrations.class.getClassLoader())
        .dataSource(dataSource)
        .locations(LOCATION)
        .table(HISTORY_TABLE)
        .failOnMissingLocations(true)
        .validateMigrationNaming(true)
        .cleanDisabled(true)
        .load();
  }
}
