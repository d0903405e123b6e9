package dev.sluice.store.sqlite;

import dev.sluice.core.journal.Journal;
import dev.sluice.core.journal.JournalFactory;
import dev.sluice.core.policy.Policy;
import java.util.Optional;

/**
 * The embedded journal for a policy with no {@code store}: {@link SqliteJournal} in the policy's
 * {@code data_dir} (created when missing). Registered for {@link java.util.ServiceLoader}.
 */
public final class SqliteJournalFactory implements JournalFactory {
  @Override
  public Optional<Journal> open(Policy policy) {
    if (policy.store().isPresent()) {
      return Optional.empty(); // a distributed store (PostgreSQL) is another factory's
    }
    return Optional.of(SqliteJournal.openExclusive(policy.dataDir())); // one process per data_dir
  }
}
