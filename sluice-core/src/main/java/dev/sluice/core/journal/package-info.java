/**
 * The journal: the durable record of every logical action and each of its attempts, of cancelled
 * tasks and of scope state, behind one interface so the engine never sees which database holds it.
 *
 * <p>Entry point: {@link dev.sluice.core.journal.Journal}. An action is recorded as a {@link
 * dev.sluice.core.journal.NewAction} and read back as an {@link dev.sluice.core.journal.ActionRecord}; it moves
 * through the {@link dev.sluice.core.journal.ActionState} machine only by compare-and-set {@link
 * dev.sluice.core.journal.Journal#transition transitions}; its attempts are {@link
 * dev.sluice.core.journal.AttemptRecord}s ending in an {@link dev.sluice.core.journal.AttemptEnd}. The embedded
 * implementation, {@code dev.sluice.store.sqlite.SqliteJournal}, lives in sluice-store.
 */
package dev.sluice.core.journal;
