package dev.sluice.core.policy;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * The {@code audit} block: where the audit log lives and how it is signed, encrypted, rotated and
 * pruned. Its presence turns the audit log on for {@code Sluice.load(file)} (the library);
 * {@code sluice serve} always writes it. Keys are references (env or file), never values.
 *
 * @param path the log's folder; empty: {@code <data_dir>/audit}
 * @param checkpointEvery a signed checkpoint after this many records (0: only at shutdown). Default 1000
 * @param signingKey the Ed25519 checkpoint key ({@code signing_key_env} / {@code signing_key_file}, PKCS#8
 *     PEM); empty: the environment variables {@code SLUICE_AUDIT_SIGNING_KEY_FILE} / {@code
 *     SLUICE_AUDIT_SIGNING_KEY}, else no checkpoints
 * @param encryptionKey the AES-256 payload key ({@code encryption_key_env} / {@code encryption_key_file},
 *     base64 of 32 bytes); empty: {@code SLUICE_AUDIT_ENCRYPTION_KEY_FILE} / {@code
 *     SLUICE_AUDIT_ENCRYPTION_KEY}, else payloads in clear
 * @param rotateMaxBytes a new segment past this size ({@code rotate.max_bytes}). Default 64 MiB
 * @param rotateMaxAge a new segment when the current one is older ({@code rotate.max_age_hours}); empty: by size only
 * @param keepSegments {@code retention.keep_segments}; empty: no bound
 * @param retentionMaxAge {@code retention.max_age_days}; empty: no bound
 */
public record AuditPolicy(Optional<Path> path, int checkpointEvery, Optional<SecretRef> signingKey, Optional<SecretRef> encryptionKey,
    long rotateMaxBytes, Optional<Duration> rotateMaxAge, OptionalInt keepSegments, Optional<Duration> retentionMaxAge) {
  public static final int DEFAULT_CHECKPOINT_EVERY = 1000;
  public static final long DEFAULT_ROTATE_MAX_BYTES = 64L << 20;

  /** Every default: {@code audit: {}}. */
  public static final AuditPolicy DEFAULTS = new AuditPolicy(Optional.empty(), DEFAULT_CHECKPOINT_EVERY, Optional.empty(), Optional.empty(),
      DEFAULT_ROTATE_MAX_BYTES, Optional.empty(), OptionalInt.empty(), Optional.empty());

  public AuditPolicy {
    Objects.requireNonNull(path, "path");
    Objects.requireNonNull(signingKey, "signingKey");
    Objects.requireNonNull(encryptionKey, "encryptionKey");
    Objects.requireNonNull(rotateMaxAge, "rotateMaxAge");
    Objects.requireNonNull(keepSegments, "keepSegments");
    Objects.requireNonNull(retentionMaxAge, "retentionMaxAge");
    if (checkpointEvery < 0) {
      throw new IllegalArgumentException("audit.checkpoint_every must be 0 or more, got " + checkpointEvery);
    }
    if (rotateMaxBytes < 1024) {
      throw new IllegalArgumentException("audit.rotate.max_bytes must be at least 1024, got " + rotateMaxBytes);
    }
    if (keepSegments.isPresent() && keepSegments.getAsInt() < 1) {
      throw new IllegalArgumentException("audit.retention.keep_segments must be at least 1, got " + keepSegments.getAsInt());
    }
  }

  /** The folder of the log for a policy whose {@code data_dir} is {@code dataDir}. */
  public Path dir(Path dataDir) {
    return path.orElse(dataDir.resolve("audit"));
  }

  /** Whether old segments are pruned. */
  public boolean prunes() {
    return keepSegments.isPresent() || retentionMaxAge.isPresent();
  }
}
