package dev.sluice.core.journal;

import dev.sluice.core.policy.Policy;
import java.util.Optional;

/**
 * Opens the {@link Journal} a policy asks for; found with {@link java.util.ServiceLoader}, so that
 * sluice-core names no database. sluice-store registers the embedded SQLite journal (policy without
 * {@code store}: {@code data_dir/sluice.db}); a PostgreSQL module would register one for {@code
 * store: jdbc:postgresql:...}. See docs/decisions/0005-journal-in-core.md.
 *
 * <p>Implementations need a public no-argument constructor and a {@code
 * META-INF/services/dev.sluice.core.journal.JournalFactory} entry.
 */
public interface JournalFactory {
  /**
   * Opens the journal for this policy, or returns empty when this factory does not handle the
   * policy's store.
   *
   * @throws JournalException when the factory handles the store but cannot open it
   */
  Optional<Journal> open(Policy policy);
}
