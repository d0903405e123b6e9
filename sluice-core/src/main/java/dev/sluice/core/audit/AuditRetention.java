package dev.sluice.core.audit;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * How long closed audit segments are kept ({@code audit.retention}). A closed segment is pruned when
 * either bound says so; the segment being written is never pruned. Pruning leaves a signed record of
 * what went (see {@link AuditPruner}), so it needs the checkpoint signing key.
 *
 * @param keepSegments keep at most this many segments (the current one included); empty: no bound
 * @param maxAge prune a closed segment whose last record is older than this; empty: no bound
 */
public record AuditRetention(OptionalInt keepSegments, Optional<Duration> maxAge) {
  /** Keep everything (the default). */
  public static final AuditRetention KEEP_ALL = new AuditRetention(OptionalInt.empty(), Optional.empty());

  public AuditRetention {
    Objects.requireNonNull(keepSegments, "keepSegments");
    Objects.requireNonNull(maxAge, "maxAge");
    if (keepSegments.isPresent() && keepSegments.getAsInt() < 1) {
      throw new IllegalArgumentException("retention.keep_segments must be at least 1, got " + keepSegments.getAsInt());
    }
    if (maxAge.isPresent() && (maxAge.get().isNegative() || maxAge.get().isZero())) {
      throw new IllegalArgumentException("retention max age must be positive, got " + maxAge.get());
    }
  }

  public boolean keepsAll() {
    return keepSegments.isEmpty() && maxAge.isEmpty();
  }
}
