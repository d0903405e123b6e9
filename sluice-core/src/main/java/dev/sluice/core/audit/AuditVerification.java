package dev.sluice.core.audit;

import java.util.Objects;
import java.util.Optional;

/**
 * What {@link AuditVerifier#verify} found.
 *
 * @param records the records read (checkpoints included) up to the first break, or all of them
 * @param segments the segment files found
 * @param head the hash of the last intact record ({@code 0…0} for an empty log)
 * @param checkpoints the checkpoint records read (their signatures checked when a public key was given)
 * @param signaturesChecked whether a public key was given
 * @param firstBreak the first broken record, or empty when the log is intact
 * @param prunedThrough the last sequence number removed by pruning (0: nothing pruned); {@code
 *     records} counts what remains
 */
public record AuditVerification(long records, int segments, String head, long checkpoints, boolean signaturesChecked, Optional<Break> firstBreak,
    long prunedThrough) {
  public AuditVerification {
    Objects.requireNonNull(head, "head");
    Objects.requireNonNull(firstBreak, "firstBreak");
  }

  /** A verification of a log that was never pruned. */
  public AuditVerification(long records, int segments, String head, long checkpoints, boolean signaturesChecked, Optional<Break> firstBreak) {
    this(records, segments, head, checkpoints, signaturesChecked, firstBreak, 0);
  }

  /** Why a record breaks the log. */
  public enum Reason {
    /** The record's bytes do not hash to its stored hash, or it does not chain to its predecessor, or it is not a record at all. */
    MODIFIED,
    /** A record appears before an earlier one. */
    REORDERED,
    /** A sequence number is skipped: records were removed. */
    MISSING,
    /** The log ends in a torn (partial) record. */
    TRUNCATED,
    /** The signed anchor names a record past the end of the log: its tail was cut off. */
    TRUNCATED_AFTER_CHECKPOINT,
    /** A checkpoint's signature does not verify with the public key, or does not sign the record before it. */
    BAD_SIGNATURE,
    /** A public key was given but the log carries no signed checkpoint to check. */
    NO_CHECKPOINT;

    public String label() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }
  }

  /**
   * The first broken record.
   *
   * @param file the segment (or anchor) file name
   * @param line its line number in that file, from 1 (0 for the anchor)
   * @param seq the sequence number expected at that place
   * @param reason why it is broken
   * @param detail a short explanation, quoting no field values other than seq and hashes
   */
  public record Break(String file, long line, long seq, Reason reason, String detail) {}

  public boolean intact() {
    return firstBreak.isEmpty();
  }

  /** One line, for a terminal. */
  public String summary() {
    if (firstBreak.isPresent()) {
      Break b = firstBreak.get();
      return "BROKEN at " + b.file() + (b.line() > 0 ? ":" + b.line() : "") + " (seq " + b.seq() + "): " + b.reason().label() + " - " + b.detail();
    }
    return "OK " + records + " records in " + segments + " segment(s), head " + head + ", " + checkpoints + " checkpoint(s)"
        + (prunedThrough > 0 ? ", seq 1-" + prunedThrough + " pruned" : "")
        + (signaturesChecked ? " with valid signatures" : " (signatures not checked: no public key)");
  }
}
