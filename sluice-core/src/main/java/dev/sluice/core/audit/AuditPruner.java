package dev.sluice.core.audit;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.core.audit.internal.Canonical;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.security.GeneralSecurityException;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.Signature;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Removes old, closed audit segments and leaves a signed record of what went, so the rest of the
 * chain still verifies: {@value #RECORD} holds the range of sequence numbers pruned ({@code
 * first_seq}…{@code last_seq}), the hash of the last pruned record ({@code last_hash}: the {@code
 * prev} of the first remaining one), and an Ed25519 signature over them by the checkpoint key.
 * {@link AuditVerifier} starts the chain from that record; with the public key it checks the
 * signature, so an edited prune record ({@code bad_signature}) or a deleted one ({@code missing})
 * is detected.
 *
 * <p>Only whole segments go, oldest first, never the one being written. Nothing is pruned from a
 * log that does not verify: a broken log is evidence. The prune record is written (atomically)
 * before any segment is deleted; a crash in between leaves segments the verifier skips as already
 * pruned.
 */
public final class AuditPruner {
  /** The prune record's file name, next to the segments. */
  public static final String RECORD = "audit-pruned.json";

  private AuditPruner() {}

  /** Which closed segments to prune. */
  public sealed interface Selection {
    /** Segments whose last record is older than {@code instant}. */
    record Before(Instant instant) implements Selection {
      public Before {
        Objects.requireNonNull(instant, "instant");
      }
    }

    /** All but the newest {@code segments} segments (the current one counts). */
    record Keep(int segments) implements Selection {
      public Keep {
        if (segments < 1) {
          throw new IllegalArgumentException("keep at least 1 segment, got " + segments);
        }
      }
    }
  }

  /**
   * The signed record of everything pruned so far.
   *
   * @param firstSeq the first sequence number ever pruned (1)
   * @param lastSeq the last one pruned
   * @param lastHash the hash of record {@code lastSeq}
   * @param segments how many segments were pruned in all
   * @param at when the last prune happened
   * @param keyId the signing key's id ({@link AuditKeys#keyId})
   * @param signature base64 Ed25519 signature of {@link #message}
   */
  public record PruneRecord(long firstSeq, long lastSeq, String lastHash, long segments, String at, String keyId, String signature) {
    /** The signed message. */
    public byte[] message() {
      return ("sluice-audit-prune\n" + firstSeq + "\n" + lastSeq + "\n" + lastHash + "\n" + segments + "\n" + at).getBytes(StandardCharsets.UTF_8);
    }

    public boolean signatureValid(PublicKey key) {
      try {
        Signature s = Signature.getInstance("Ed25519");
        s.initVerify(key);
        s.update(message());
        return s.verify(Base64.getDecoder().decode(signature));
      } catch (GeneralSecurityException | IllegalArgumentException e) {
        return false;
      }
    }
  }

  /**
   * The prune record in {@code dir}, as stored (signature not checked).
   *
   * @throws IllegalArgumentException when the file exists but is not a prune record
   */
  public static Optional<PruneRecord> record(Path dir) throws IOException {
    Path f = dir.resolve(RECORD);
    if (!Files.exists(f)) {
      return Optional.empty();
    }
    JsonNode n;
    try {
      n = Canonical.parse(Files.readString(f, StandardCharsets.UTF_8).strip());
    } catch (Exception e) {
      throw new IllegalArgumentException(RECORD + " is not a prune record");
    }
    if (!n.path("first_seq").canConvertToLong() || !n.path("last_seq").canConvertToLong() || !n.path("segments").canConvertToLong()
        || !n.path("last_hash").asText("").matches("[0-9a-f]{64}") || !n.path("signature").isTextual() || !n.path("at").isTextual()) {
      throw new IllegalArgumentException(RECORD + " is not a prune record");
    }
    return Optional.of(new PruneRecord(n.path("first_seq").asLong(), n.path("last_seq").asLong(), n.path("last_hash").asText(),
        n.path("segments").asLong(), n.path("at").asText(), n.path("key_id").asText(""), n.path("signature").asText()));
  }

  /** Applies {@code settings.retention()} (both bounds) at {@code now}; empty when nothing was pruned. */
  static Optional<PruneRecord> applyRetention(AuditSettings settings, Instant now) {
    AuditRetention r = settings.retention();
    try {
      Optional<PruneRecord> done = Optional.empty();
      if (r.maxAge().isPresent()) {
        done = prune(settings.dir(), settings.signingKey().orElseThrow(), new Selection.Before(now.minus(r.maxAge().get())), now);
      }
      if (r.keepSegments().isPresent()) {
        Optional<PruneRecord> more = prune(settings.dir(), settings.signingKey().orElseThrow(), new Selection.Keep(r.keepSegments().getAsInt()), now);
        if (more.isPresent()) {
          done = more;
        }
      }
      return done;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot prune the audit log in " + settings.dir() + ": " + e.getMessage(), e);
    }
  }

  /**
   * Prunes the closed segments {@code selection} names.
   *
   * @return the new prune record, or empty when no segment qualified
   * @throws IllegalStateException when the log does not verify (nothing is removed then)
   */
  public static Optional<PruneRecord> prune(Path dir, PrivateKey key, Selection selection, Instant now) throws IOException {
    List<Path> segments = AuditVerifier.segments(dir);
    if (segments.size() <= 1) {
      return Optional.empty();
    }
    List<Path> closed = segments.subList(0, segments.size() - 1);
    List<Path> victims = new ArrayList<>();
    JsonNode lastOfVictims = null;
    for (int i = 0; i < closed.size(); i++) {
      JsonNode last = lastRecord(closed.get(i));
      boolean take = switch (selection) {
        case Selection.Before b -> last != null && Instant.parse(last.path("at").asText()).isBefore(b.instant());
        case Selection.Keep k -> i < segments.size() - k.segments();
      };
      if (!take) {
        break;
      }
      if (last == null) {
        continue; // an empty segment (a crash right after a rotation): left in place, it holds nothing
      }
      victims.add(closed.get(i));
      lastOfVictims = last;
    }
    if (victims.isEmpty() || lastOfVictims == null) {
      return Optional.empty();
    }
    AuditVerification v = AuditVerifier.verify(dir);
    if (!v.intact()) {
      throw new IllegalStateException("the audit log does not verify (" + v.summary() + "); nothing was pruned: a broken log is evidence");
    }
    Optional<PruneRecord> before = record(dir);
    long firstSeq = before.map(PruneRecord::firstSeq).orElse(1L);
    long count = before.map(PruneRecord::segments).orElse(0L) + victims.size();
    PruneRecord unsigned = new PruneRecord(firstSeq, lastOfVictims.path("seq").asLong(), lastOfVictims.path("hash").asText(), count,
        now.toString(), AuditKeys.keyId(AuditKeys.publicOf(key)), "");
    PruneRecord signed = new PruneRecord(unsigned.firstSeq(), unsigned.lastSeq(), unsigned.lastHash(), unsigned.segments(), unsigned.at(),
        unsigned.keyId(), sign(key, unsigned.message()));
    writeRecord(dir, signed);
    for (Path p : victims) {
      Files.deleteIfExists(p);
    }
    return Optional.of(signed);
  }

  private static JsonNode lastRecord(Path segment) throws IOException {
    String text = Files.readString(segment, StandardCharsets.UTF_8);
    if (text.isEmpty()) {
      return null;
    }
    int end = text.endsWith("\n") ? text.length() - 1 : text.length();
    int start = text.lastIndexOf('\n', end - 1) + 1;
    try {
      return Canonical.parse(text.substring(start, end));
    } catch (Exception e) {
      throw new IllegalStateException("the last record of " + segment.getFileName() + " is not readable; nothing was pruned");
    }
  }

  private static String sign(PrivateKey key, byte[] message) {
    try {
      Signature s = Signature.getInstance("Ed25519");
      s.initSign(key);
      s.update(message);
      return Base64.getEncoder().encodeToString(s.sign());
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("cannot sign the prune record: " + e.getMessage(), e);
    }
  }

  private static void writeRecord(Path dir, PruneRecord r) throws IOException {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("first_seq", r.firstSeq());
    m.put("last_seq", r.lastSeq());
    m.put("last_hash", r.lastHash());
    m.put("segments", r.segments());
    m.put("at", r.at());
    m.put("key_id", r.keyId());
    m.put("signature", r.signature());
    Path target = dir.resolve(RECORD);
    Path tmp = dir.resolve(RECORD + ".tmp");
    Files.writeString(tmp, Canonical.body(m) + "\n", StandardCharsets.UTF_8);
    try (FileChannel c = FileChannel.open(tmp, StandardOpenOption.WRITE)) {
      c.force(true);
    }
    try {
      Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    } catch (AtomicMoveNotSupportedException e) {
      Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING);
    }
  }
}
