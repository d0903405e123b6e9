/**
 * The embedded journal: SQLite in WAL mode in {@code data_dir/sluice.db}, schema migrated by
 * Flyway, commits that touch a write fsynced before they return (docs/decisions/0004).
 */
package dev.sluice.store.sqlite;
