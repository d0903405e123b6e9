package dev.sluice.store.sqlite;

import java.time.Duration;
import java.util.Objects;

/**
 * Settings of the embedded journal. Defaults: payloads up to 1 MiB kept, a 5 s busy timeout.
 *
 * @param payloadCapBytes payloads up to this size are kept for a resend after a restart; larger
 *     ones keep only their digest and size (such an action is escalated rather than resent after a
 *     restart). At least 0.
 * @param busyTimeout how long a statement waits for another connection or process holding the
 *     database's write lock before failing
 */
public record SqliteJournalOptions(int payloadCapBytes, Duration busyTimeout) {
  /** 1 MiB. */
  public static final int DEFAULT_PAYLOAD_CAP_BYTES = 1 << 20;
  /** 5 s. */
  public static final Duration DEFAULT_BUSY_TIMEOUT = Duration.ofSeconds(5);
  public static final SqliteJournalOptions DEFAULTS = new SqliteJournalOptions(DEFAULT_PAYLOAD_CAP_BYTES, DEFAULT_BUSY_TIMEOUT);

  public SqliteJournalOptions {
    Objects.requireNonNull(busyTimeout, "busyTimeout");
    if (payloadCapBytes < 0) {
      throw new IllegalArgumentException("the payload cap cannot be negative: " + payloadCapBytes);
    }
    if (busyTimeout.isNegative() || busyTimeout.toMillis() > Integer.MAX_VALUE) {
      throw new IllegalArgumentException("the busy timeout must lie between 0 and about 24 days, got " + busyTimeout);
    }
  }

  public SqliteJournalOptions withPayloadCapBytes(int value) {
    return new SqliteJournalOptions(value, busyTimeout);
  }

  public SqliteJournalOptions withBusyTimeout(Duration value) {
    return new SqliteJournalOptions(payloadCapBytes, value);
  }
}
