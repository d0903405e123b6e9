package dev.sluice.store.sqlite.internal;

/**
 * How a transaction's commit must survive: {@link #POWER_LOSS} commits with {@code
 * synchronous=FULL} (the WAL is fsynced before the commit returns); {@link #PROCESS_CRASH} with
 * {@code NORMAL} (in WAL mode the commit is in the OS's page cache, safe if the process dies, and
 * becomes power-loss safe at the next FULL commit or checkpoint). See
 * docs/decisions/0004-journal-sync-mode.md.
 */
public enum Durability {
  /** Anything about a write action, and task cancellation. */
  POWER_LOSS("FULL"),
  /** Read actions and scope state: losing the last of them costs a repeated read or 429. */
  PROCESS_CRASH("NORMAL");

  final String pragma;

  Durability(String pragma) {
    this.pragma = pragma;
  }
}
