package dev.sluice.core.audit;

import dev.sluice.core.audit.internal.Canonical;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.security.GeneralSecurityException;
import java.security.Signature;
import java.time.Instant;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;

/**
 * An append-only, hash-chained audit log: one JSON record per line, in segment files {@code
 * audit-000001.log}, {@code audit-000002.log}, … (format: {@link Canonical}). Each record holds
 * {@code seq} (from 1, no gaps), {@code at}, {@code event}, the event's fields, {@code prev} (the
 * previous record's hash) and {@code hash}.
 *
 * <p>What goes in: only the fields callers pass, which are metadata by construction (task, action,
 * attempt, idempotency key, status, retry_after, scope, due time, budget figures) — never a header
 * value, a credential or a request/response body; field values are strings, integers or booleans.
 *
 * <p>Durability: {@link #append} writes the line and forces it to disk ({@code fsync}) before it
 * returns, so a returned sequence number is on disk. A crash mid-append can leave a torn last
 * line; {@link AuditVerifier} reports it as {@code truncated} and this class refuses to append
 * after it (the evidence is left for an operator, not repaired silently).
 *
 * <p>Checkpoints: with a signing key, an Ed25519-signed {@code checkpoint} record over the head
 * (the last record's seq and hash) is appended every {@link AuditSettings#checkpointEvery()}
 * records and at {@link #close()}, and the latest one is also written to {@value #ANCHOR} (replaced
 * atomically), so a truncated tail or a re-chained rewrite is detectable with the public key.
 *
 * <p>Thread-safe: appends are serialised; the order of {@code seq} is the order of the calls.
 */
public final class AuditLog implements AutoCloseable {
  public static final String ANCHOR = "audit-head.json";
  static final Set<String> RESERVED = Set.of("seq", "at", "event", "prev", "hash", "enc", "payload");
  /** Fields that stay in clear in an encrypted record, so a reader without the key can still select by task or action. */
  public static final Set<String> CLEAR_FIELDS = Set.of("task", "action");
  /** Events whose fields are part of the log's own structure: never encrypted. */
  static final Set<String> STRUCTURAL = Set.of("checkpoint", "segments_pruned");

  private final AuditSettings settings;
  private final Supplier<Instant> clock;
  private final Optional<String> keyId;
  private FileChannel channel;
  private int segment;
  private long seq;
  private String head;
  private long sinceCheckpoint;
  private boolean closed;
  /** The last 4 bytes of every GCM nonce this writer makes; see {@link AuditCipher}. */
  private final int salt = AuditCipher.newSalt();
  /** When the first record of the current segment was written; null while it is empty. */
  private Instant segmentStartedAt;
  private boolean rotated;

  private AuditLog(AuditSettings settings, Supplier<Instant> clock) throws IOException {
    this.settings = settings;
    this.clock = clock;
    this.keyId = settings.signingKey().map(k -> AuditKeys.keyId(AuditKeys.publicOf(k)));
    if (!settings.retention().keepsAll() && settings.signingKey().isEmpty()) {
      throw new IllegalArgumentException("audit retention needs the checkpoint signing key: pruning leaves a signed record of what it removed");
    }
    Files.createDirectories(settings.dir());
    List<Path> segments = AuditVerifier.segments(settings.dir());
    this.segment = segments.isEmpty() ? 1 : AuditVerifier.segmentNumber(segments.getLast());
    this.seq = 0;
    this.head = Canonical.GENESIS;
    for (int i = segments.size() - 1; i >= 0; i--) {
      byte[] bytes = Files.readAllBytes(segments.get(i));
      if (bytes.length == 0) {
        continue;
      }
      if (bytes[bytes.length - 1] != '\n') {
        throw new IllegalStateException("the audit log " + segments.get(i) + " ends in a torn record; run 'sluice audit verify' and move the log aside");
      }
      String text = new String(bytes, StandardCharsets.UTF_8);
      int start = text.lastIndexOf('\n', text.length() - 2) + 1;
      var last = Canonical.parse(text.substring(start, text.length() - 1));
      this.seq = last.path("seq").asLong();
      this.head = last.path("hash").asText();
      break;
    }
    if (segments.isEmpty()) {
      // Everything was pruned (or the log is new): continue after the prune record, if any.
      Optional<AuditPruner.PruneRecord> pruned = AuditPruner.record(settings.dir());
      if (pruned.isPresent()) {
        this.seq = pruned.get().lastSeq();
        this.head = pruned.get().lastHash();
      }
    } else {
      this.segmentStartedAt = firstRecordTime(segments.getLast());
    }
    this.channel = openSegment(segment);
    if (!settings.retention().keepsAll()) {
      prune(clock.get());
    }
  }

  private static Instant firstRecordTime(Path segment) throws IOException {
    try (var lines = Files.lines(segment, StandardCharsets.UTF_8)) {
      return lines.findFirst().map(l -> {
        try {
          return Instant.parse(Canonical.parse(l).path("at").asText());
        } catch (Exception e) {
          return null;
        }
      }).orElse(null);
    }
  }

  /**
   * Opens (or creates) the log in {@code settings.dir()} and continues its chain.
   *
   * @param clock the time of the checkpoint written at close
   * @throws UncheckedIOException when the folder cannot be written
   * @throws IllegalStateException when the last record is torn
   */
  public static AuditLog open(AuditSettings settings, Supplier<Instant> clock) {
    try {
      return new AuditLog(settings, clock);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot open the audit log in " + settings.dir() + ": " + e.getMessage(), e);
    }
  }

  /**
   * Appends one event, durably.
   *
   * @param fields the event's fields: string, integer or boolean values; none of the reserved keys
   * @return the record's sequence number
   */
  public synchronized long append(String event, Instant at, Map<String, ?> fields) {
    if (closed) {
      throw new IllegalStateException("the audit log is closed");
    }
    long n = write(event, at, fields);
    sinceCheckpoint++;
    if (settings.signingKey().isPresent() && settings.checkpointEvery() > 0 && sinceCheckpoint >= settings.checkpointEvery()) {
      checkpoint(at);
    }
    return n;
  }

  /** Appends a signed checkpoint over the current head now (no-op without a key or records). */
  public synchronized void checkpoint(Instant at) {
    if (settings.signingKey().isEmpty() || seq == 0 || sinceCheckpoint == 0) {
      return;
    }
    String signature = sign(seq, head);
    Map<String, Object> f = new LinkedHashMap<>();
    f.put("signed_seq", seq);
    f.put("signed_hash", head);
    f.put("signature", signature);
    f.put("key_id", keyId.orElseThrow());
    write("checkpoint", at, f);
    sinceCheckpoint = 0;
    writeAnchor(Canonical.body(f));
  }

  public synchronized long lastSeq() {
    return seq;
  }

  public synchronized String head() {
    return head;
  }

  public AuditSettings settings() {
    return settings;
  }

  /** Writes a final checkpoint (with a key) and closes the segment. Idempotent. */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    try {
      checkpoint(clock.get());
    } finally {
      closed = true;
      try {
        channel.close();
      } catch (IOException e) {
        throw new UncheckedIOException("cannot close the audit log: " + e.getMessage(), e);
      }
    }
  }

  /** Why the log stopped, once an append failed; null while it works. */
  private String broken;

  private long write(String event, Instant at, Map<String, ?> fields) {
    if (broken != null) {
      // After a failed append the next record would reuse its seq, and with encryption its nonce:
      // two plaintexts under one AES-GCM nonce leak both. Nothing more is written (review).
      throw new IllegalStateException("the audit log stopped after a failed append (" + broken + "); restart Sluice once the disk is fixed");
    }
    if (event == null || event.isBlank()) {
      throw new IllegalArgumentException("an audit event needs a name");
    }
    Map<String, Object> given = new LinkedHashMap<>();
    fields.forEach((k, v) -> {
      if (RESERVED.contains(k)) {
        throw new IllegalArgumentException("audit field '" + k + "' is reserved");
      }
      if (!(v instanceof String || v instanceof Long || v instanceof Integer || v instanceof Boolean)) {
        throw new IllegalArgumentException("audit field '" + k + "' must be a string, an integer or a boolean");
      }
      given.put(k, v);
    });
    long n = seq + 1;
    Map<String, Object> record = settings.encryption().isPresent() && !STRUCTURAL.contains(event)
        ? encrypted(settings.encryption().get(), n, event, at.toString(), given)
        : given;
    record.put("seq", n);
    record.put("at", at.toString());
    record.put("event", event);
    record.put("prev", head);
    String body = Canonical.body(record);
    String hash = Canonical.hash(head, n, body);
    byte[] line = (Canonical.line(body, hash) + "\n").getBytes(StandardCharsets.UTF_8);
    try {
      boolean tooBig = channel.size() + line.length > settings.segmentBytes();
      boolean tooOld = segmentStartedAt != null && settings.segmentMaxAge().isPresent()
          && !at.isBefore(segmentStartedAt.plus(settings.segmentMaxAge().get()));
      if (channel.size() > 0 && (tooBig || tooOld)) {
        channel.close();
        segment++;
        channel = openSegment(segment);
        segmentStartedAt = null;
        rotated = true;
      }
      if (segmentStartedAt == null) {
        segmentStartedAt = at;
      }
      ByteBuffer buf = ByteBuffer.wrap(line);
      while (buf.hasRemaining()) {
        channel.write(buf);
      }
      channel.force(false);
    } catch (IOException e) {
      broken = e.getMessage();
      throw new UncheckedIOException("cannot append to the audit log: " + e.getMessage(), e);
    }
    seq = n;
    head = hash;
    if (rotated && !settings.retention().keepsAll() && !STRUCTURAL.contains(event)) {
      rotated = false;
      prune(at);
    }
    return n;
  }

  /** Applies the configured retention now and records a prune in the chain. */
  private void prune(Instant at) {
    AuditPruner.applyRetention(settings, at).ifPresent(r -> recordPrune(r, at));
  }

  /**
   * The record with its payload encrypted: the clear fields ({@link #CLEAR_FIELDS}) stay, the rest
   * becomes {@code payload} (see {@link AuditCipher}) and {@code enc} names the key. The chain then
   * hashes the ciphertext, so it verifies without the key.
   */
  private Map<String, Object> encrypted(AuditCipher cipher, long n, String event, String at, Map<String, Object> fields) {
    Map<String, Object> clear = new LinkedHashMap<>();
    Map<String, Object> secret = new LinkedHashMap<>();
    fields.forEach((k, v) -> (CLEAR_FIELDS.contains(k) ? clear : secret).put(k, v));
    byte[] plain = Canonical.body(secret).getBytes(StandardCharsets.UTF_8);
    clear.put("enc", cipher.keyId());
    clear.put("payload", cipher.encrypt(n, salt, event, at, plain));
    return clear;
  }

  /**
   * Records a prune done by this writer's retention in the chain itself (the signed prune file is
   * the proof; this line is the history).
   */
  private void recordPrune(AuditPruner.PruneRecord r, Instant at) {
    Map<String, Object> f = new LinkedHashMap<>();
    f.put("first_seq", r.firstSeq());
    f.put("last_seq", r.lastSeq());
    f.put("last_hash", r.lastHash());
    write("segments_pruned", at, f);
  }

  private String sign(long signedSeq, String hash) {
    try {
      Signature s = Signature.getInstance("Ed25519");
      s.initSign(settings.signingKey().orElseThrow());
      s.update(Canonical.checkpointMessage(signedSeq, hash));
      return Base64.getEncoder().encodeToString(s.sign());
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("cannot sign an audit checkpoint: " + e.getMessage(), e);
    }
  }

  private void writeAnchor(String body) {
    Path target = settings.dir().resolve(ANCHOR);
    Path tmp = settings.dir().resolve(ANCHOR + ".tmp");
    try {
      Files.writeString(tmp, body + "\n", StandardCharsets.UTF_8);
      try (FileChannel c = FileChannel.open(tmp, StandardOpenOption.WRITE)) {
        c.force(true);
      }
      try {
        Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
      } catch (AtomicMoveNotSupportedException e) {
        Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write the audit anchor: " + e.getMessage(), e);
    }
  }

  private FileChannel openSegment(int number) throws IOException {
    return FileChannel.open(settings.dir().resolve(AuditVerifier.segmentName(number)),
        StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.APPEND);
  }
}
