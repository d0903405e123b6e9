package dev.sluice.core.audit;

import java.nio.file.Path;
import java.security.PrivateKey;
import java.time.Duration;
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
 * @param encryption the AES-GCM key that encrypts event payloads at rest; empty: payloads in clear
 * @param segmentMaxAge a new segment is started when the current one's first record is older than
 *     this; empty (the default): segments rotate by size only
 * @param retention which closed segments are pruned at start and at each rotation; default keep all
 */
public record AuditSettings(Path dir, int checkpointEvery, long segmentBytes, Optional<PrivateKey> signingKey,
    Optional<AuditCipher> encryption, Optional<Duration> segmentMaxAge, AuditRetention retention) {
  public static final int DEFAULT_CHECKPOINT_EVERY = 1000;
  public static final long DEFAULT_SEGMENT_BYTES = 64L << 20;

  public AuditSettings {
    Objects.requireNonNull(dir, "dir");
    Objects.requireNonNull(signingKey, "signingKey");
    Objects.requireNonNull(encryption, "encryption");
    Objects.requireNonNull(segmentMaxAge, "segmentMaxAge");
    Objects.requireNonNull(retention, "retention");
    if (checkpointEvery < 0) {
      throw new IllegalArgumentException("checkpointEvery cannot be negative: " + checkpointEvery);
    }
    if (segmentBytes < 1024) {
      throw new IllegalArgumentException("segmentBytes must be at least 1024: " + segmentBytes);
    }
    if (segmentMaxAge.isPresent() && (segmentMaxAge.get().isNegative() || segmentMaxAge.get().isZero())) {
      throw new IllegalArgumentException("segmentMaxAge must be positive: " + segmentMaxAge.get());
    }
  }

  /** Settings without encryption, age rotation or retention (the first form of this record). */
  public AuditSettings(Path dir, int checkpointEvery, long segmentBytes, Optional<PrivateKey> signingKey) {
    this(dir, checkpointEvery, segmentBytes, signingKey, Optional.empty(), Optional.empty(), AuditRetention.KEEP_ALL);
  }

  /** Defaults in {@code dir}: no signing key, a checkpoint every 1000 records once a key is set. */
  public static AuditSettings in(Path dir) {
    return new AuditSettings(dir, DEFAULT_CHECKPOINT_EVERY, DEFAULT_SEGMENT_BYTES, Optional.empty());
  }

  public AuditSettings withSigningKey(PrivateKey key) {
    return new AuditSettings(dir, checkpointEvery, segmentBytes, Optional.of(key), encryption, segmentMaxAge, retention);
  }

  public AuditSettings withCheckpointEvery(int n) {
    return new AuditSettings(dir, n, segmentBytes, signingKey, encryption, segmentMaxAge, retention);
  }

  public AuditSettings withSegmentBytes(long bytes) {
    return new AuditSettings(dir, checkpointEvery, bytes, signingKey, encryption, segmentMaxAge, retention);
  }

  public AuditSettings withEncryption(AuditCipher cipher) {
    return new AuditSettings(dir, checkpointEvery, segmentBytes, signingKey, Optional.of(cipher), segmentMaxAge, retention);
  }

  public AuditSettings withSegmentMaxAge(Duration age) {
    return new AuditSettings(dir, checkpointEvery, segmentBytes, signingKey, encryption, Optional.of(age), retention);
  }

  public AuditSettings withRetention(AuditRetention r) {
    return new AuditSettings(dir, checkpointEvery, segmentBytes, signingKey, encryption, segmentMaxAge, r);
  }
}
