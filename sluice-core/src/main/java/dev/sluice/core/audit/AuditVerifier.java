package dev.sluice.core.audit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.core.audit.AuditVerification.Break;
import dev.sluice.core.audit.AuditVerification.Reason;
import dev.sluice.core.audit.internal.Canonical;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.PublicKey;
import java.security.Signature;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Checks an audit log offline, without any secret: every record must hash to its stored hash
 * (see {@link Canonical}), chain to the one before, and carry the next sequence number. With the
 * public key, every checkpoint's Ed25519 signature must verify and sign the record just before it,
 * and the anchor file's checkpoint must name a record present in the log with the same hash — so a
 * cut-off tail and a wholesale rewrite made without the signing key are caught too. Reports the
 * FIRST broken record only: what follows a break cannot be trusted anyway.
 */
public final class AuditVerifier {
  private static final Pattern SEGMENT = Pattern.compile("audit-(\\d{6})\\.log");
  private static final Pattern HASH_SUFFIX = Pattern.compile(",\"hash\":\"([0-9a-f]{64})\"}$");

  private AuditVerifier() {}

  /** Verifies structure only (hashes, chain, order); signatures are not checked. */
  public static AuditVerification verify(Path dir) throws IOException {
    return verify(dir, Optional.empty());
  }

  public static AuditVerification verify(Path dir, Optional<PublicKey> publicKey) throws IOException {
    List<Path> segments = segments(dir);
    List<Entry> entries = new ArrayList<>();
    for (Path s : segments) {
      byte[] bytes = Files.readAllBytes(s);
      String text = new String(bytes, StandardCharsets.UTF_8);
      int lineNo = 0;
      int from = 0;
      while (from < text.length()) {
        int nl = text.indexOf('\n', from);
        lineNo++;
        boolean torn = nl < 0;
        String line = torn ? text.substring(from) : text.substring(from, nl);
        entries.add(new Entry(s.getFileName().toString(), lineNo, line, torn, parse(line)));
        from = torn ? text.length() : nl + 1;
      }
    }
    long expected = 1;
    String prev = Canonical.GENESIS;
    long checkpoints = 0;
    Map<Long, String> hashes = new HashMap<>();
    // Pruned segments: the chain starts after the signed prune record (see AuditPruner).
    Optional<AuditPruner.PruneRecord> pruned;
    try {
      pruned = AuditPruner.record(dir);
    } catch (IllegalArgumentException e) {
      return new AuditVerification(0, segments.size(), prev, 0, publicKey.isPresent(),
          Optional.of(new Break(AuditPruner.RECORD, 0, 1, Reason.MODIFIED, "the prune record is not well-formed")));
    }
    if (pruned.isPresent()) {
      AuditPruner.PruneRecord p = pruned.get();
      if (publicKey.isPresent() && !p.signatureValid(publicKey.get())) {
        return new AuditVerification(0, segments.size(), prev, 0, true,
            Optional.of(new Break(AuditPruner.RECORD, 0, p.lastSeq(), Reason.BAD_SIGNATURE, "the prune record's signature does not verify with the public key")));
      }
      if (p.firstSeq() != 1 || p.lastSeq() < 1) {
        return new AuditVerification(0, segments.size(), prev, 0, publicKey.isPresent(),
            Optional.of(new Break(AuditPruner.RECORD, 0, 1, Reason.MODIFIED, "the prune record does not start at seq 1")));
      }
      expected = p.lastSeq() + 1;
      prev = p.lastHash();
      hashes.put(p.lastSeq(), p.lastHash());
      // A crash between writing the prune record and deleting its segments leaves records it covers: skip them.
      while (!entries.isEmpty() && !entries.getFirst().torn && entries.getFirst().seq() >= 1 && entries.getFirst().seq() <= p.lastSeq()) {
        entries.removeFirst();
      }
    }
    long prunedThrough = expected - 1;
    for (int i = 0; i < entries.size(); i++) {
      Entry e = entries.get(i);
      Optional<Break> broken = check(e, i, entries, expected, prev, publicKey);
      if (broken.isPresent()) {
        return new AuditVerification(expected - 1 - prunedThrough, segments.size(), prev, checkpoints, publicKey.isPresent(), broken, prunedThrough);
      }
      if ("checkpoint".equals(e.node.path("event").asText())) {
        checkpoints++;
      }
      prev = e.node.path("hash").asText();
      hashes.put(expected, prev);
      expected++;
    }
    long records = expected - 1;
    Optional<Break> tail = publicKey.isPresent() ? checkAnchor(dir, publicKey.get(), hashes, records, checkpoints, prunedThrough) : Optional.empty();
    return new AuditVerification(records - prunedThrough, segments.size(), prev, checkpoints, publicKey.isPresent(), tail, prunedThrough);
  }

  private static Optional<Break> check(Entry e, int index, List<Entry> entries, long expected, String prev, Optional<PublicKey> key) {
    if (e.torn) {
      return fail(e, expected, Reason.TRUNCATED, "the record is incomplete (no end of line): the log was cut off or a write was torn");
    }
    Matcher m = HASH_SUFFIX.matcher(e.line);
    if (e.node == null || !m.find() || !e.node.path("seq").canConvertToLong() || !e.node.path("prev").isTextual()) {
      return fail(e, expected, Reason.MODIFIED, "not a well-formed audit record");
    }
    String stored = m.group(1);
    String body = e.line.substring(0, m.start()) + "}";
    long seq = e.node.path("seq").asLong();
    String ownPrev = e.node.path("prev").asText();
    // A record must first be consistent in itself: otherwise a changed seq digit would read as a gap.
    if (!ownPrev.matches("[0-9a-f]{64}") || !Canonical.hash(ownPrev, seq, body).equals(stored)) {
      return fail(e, expected, Reason.MODIFIED, "its bytes do not hash to its stored hash");
    }
    if (seq != expected) {
      boolean laterHasExpected = entries.subList(index + 1, entries.size()).stream().anyMatch(x -> x.seq() == expected);
      if (seq < expected || laterHasExpected) {
        return fail(e, expected, Reason.REORDERED, "found seq " + seq + " where seq " + expected + " belongs");
      }
      return fail(e, expected, Reason.MISSING, "seq " + expected + (seq - expected > 1 ? " to " + (seq - 1) : "") + " missing; next found is seq " + seq);
    }
    if (!ownPrev.equals(prev)) {
      return fail(e, expected, Reason.MODIFIED, "it does not chain to the record before it (prev " + ownPrev + ", expected " + prev + ")");
    }
    if (key.isPresent() && "checkpoint".equals(e.node.path("event").asText())) {
      long signedSeq = e.node.path("signed_seq").asLong(-1);
      String signedHash = e.node.path("signed_hash").asText("");
      if (signedSeq != seq - 1 || !signedHash.equals(prev)) {
        return fail(e, expected, Reason.BAD_SIGNATURE, "the checkpoint does not sign the record before it");
      }
      if (!signatureValid(key.get(), signedSeq, signedHash, e.node.path("signature").asText(""))) {
        return fail(e, expected, Reason.BAD_SIGNATURE, "the checkpoint's signature does not verify with the public key");
      }
    }
    return Optional.empty();
  }

  private static Optional<Break> checkAnchor(Path dir, PublicKey key, Map<Long, String> hashes, long records, long checkpoints, long prunedThrough)
      throws IOException {
    Path anchor = dir.resolve(AuditLog.ANCHOR);
    if (!Files.exists(anchor)) {
      return Optional.of(new Break(AuditLog.ANCHOR, 0, records, checkpoints == 0 && prunedThrough == 0 ? Reason.NO_CHECKPOINT : Reason.TRUNCATED_AFTER_CHECKPOINT,
          checkpoints == 0 ? "no signed checkpoint in the log and no anchor file" : "the anchor file of the latest checkpoint is missing"));
    }
    JsonNode a = parse(Files.readString(anchor, StandardCharsets.UTF_8).strip());
    if (a == null || !a.path("signed_seq").canConvertToLong()) {
      return Optional.of(new Break(AuditLog.ANCHOR, 0, records, Reason.MODIFIED, "the anchor file is not a checkpoint"));
    }
    long seq = a.path("signed_seq").asLong();
    String hash = a.path("signed_hash").asText("");
    if (!signatureValid(key, seq, hash, a.path("signature").asText(""))) {
      return Optional.of(new Break(AuditLog.ANCHOR, 0, seq, Reason.BAD_SIGNATURE, "the anchor's signature does not verify with the public key"));
    }
    if (seq > records) {
      return Optional.of(new Break(AuditLog.ANCHOR, 0, records + 1, Reason.TRUNCATED_AFTER_CHECKPOINT,
          "a signed checkpoint covers seq " + seq + " but the log ends at seq " + records));
    }
    if (seq < prunedThrough) {
      return Optional.empty(); // the anchored record was pruned; the signed prune record vouches for what came before
    }
    if (!hash.equals(hashes.get(seq))) {
      return Optional.of(new Break(AuditLog.ANCHOR, 0, seq, Reason.MODIFIED, "seq " + seq + " does not have the hash the signed checkpoint names"));
    }
    return Optional.empty();
  }

  private static boolean signatureValid(PublicKey key, long seq, String hash, String signature) {
    try {
      Signature s = Signature.getInstance("Ed25519");
      s.initVerify(key);
      s.update(Canonical.checkpointMessage(seq, hash));
      return s.verify(Base64.getDecoder().decode(signature));
    } catch (GeneralSecurityException | IllegalArgumentException e) {
      return false;
    }
  }

  private static Optional<Break> fail(Entry e, long expected, Reason reason, String detail) {
    return Optional.of(new Break(e.file, e.lineNo, expected, reason, detail));
  }

  private static ObjectNode parse(String line) {
    try {
      return Canonical.parse(line);
    } catch (Exception e) {
      return null;
    }
  }

  /** The segment files in {@code dir}, in order. */
  static List<Path> segments(Path dir) throws IOException {
    if (!Files.isDirectory(dir)) {
      return List.of();
    }
    try (Stream<Path> s = Files.list(dir)) {
      return s.filter(p -> SEGMENT.matcher(p.getFileName().toString()).matches()).sorted().toList();
    }
  }

  static int segmentNumber(Path segment) {
    Matcher m = SEGMENT.matcher(segment.getFileName().toString());
    if (!m.matches()) {
      throw new IllegalArgumentException("not an audit segment: " + segment.getFileName());
    }
    return Integer.parseInt(m.group(1));
  }

  static String segmentName(int number) {
    return String.format("audit-%06d.log", number);
  }

  private record Entry(String file, long lineNo, String line, boolean torn, ObjectNode node) {
    long seq() {
      return node != null && node.path("seq").canConvertToLong() ? node.path("seq").asLong() : -1;
    }
  }
}
