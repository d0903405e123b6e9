/**
 * The journal: the durable record of every logical action and each of its attempts, of cancelled
 * tasks and of scope state, behind one interface so the engine never sees which database holds it.
 *
 * <p>Entry point: {@link dev.sluice.store.Journal}. An action is recorded as a {@link
 * dev.sluice.store.NewAction} and read back as an {@link dev.sluice.store.ActionRecord}; it moves
 * through the {@link dev.sluice.store.ActionState} machine only by compare-and-set {@link
 * dev.sluice.store.Journal#transition transitions}; its attempts are {@link
 * dev.sluice.store.AttemptRecord}s ending in an {@link dev.sluice.store.AttemptEnd}. The embedded
 * implementation is {@link dev.sluice.store.sqlite.SqliteJournal}.
 */
package dev.sluice.store;
