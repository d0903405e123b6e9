package dev.sluice.core.audit;

import java.nio.file.Path;
import java.security.PrivateKey;
import java.util.Objects;
import java.util.Optional;

/**
 * Where and how the audit log is written.
 *
 * @param dir the folder of the segments ({@code <data_dir>/audit} by default, see {@link #in})
 * @param checkpointEvery a signed checkpoint after every this many records (0: only at close);
 *     ignored without a signing key. Default {@value #DEFAULT_CHECKPOINT_EVERY}
 * @param segmentBytes a new segment is started once the current one reaches this size. Default 64 MiB
 * @param signingKey the Ed25519 key that signs checkpoints; empty: no checkpoints
 */
public record AuditSettings(Path dir, int checkpointEvery, long segmentBytes, Optional<PrivateKey> signingKey) {
  public static final int DEFAULT_CHECKPOINT_EVERY = 1000;
  public static final long DEFAULT_SEGMENT_BYTES = 64L << 20;

  public AuditSettings {
    Objects.requireNonNull(dir, "dir");
    Objects.requireNonNull(signingKey, "signingKey");
    if (checkpointEvery < 0) {
      throw new IllegalArgumentException("checkpointEvery cannot be negative: " + checkpointEvery);
    }
    if (segmentBytes < 1024) {
      throw new IllegalArgumentException("segmentBytes must be at least 1024: " + segmentBytes);
    }
  }

  /** Defaults in {@code dir}: no signing key, a checkpoint every 1000 records once a key is set. */
  public static AuditSettings in(Path dir) {
    return new AuditSettings(dir, DEFAULT_CHECKPOINT_EVERY, DEFAULT_SEGMENT_BYTES, Optional.empty());
  }

  public AuditSettings withSigningKey(PrivateKey key) {
    return new AuditSettings(dir, checkpointEvery, segmentBytes, Optional.of(key));
  }

  public AuditSettings withCheckpointEvery(int n) {
    return new AuditSettings(dir, n, segmentBytes, signingKey);
  }

  public AuditSettings withSegmentBytes(long bytes) {
    return new AuditSettings(dir, checkpointEvery, bytes, signingKey);
  }
}
