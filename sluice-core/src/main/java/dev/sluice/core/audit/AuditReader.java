package dev.sluice.core.audit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.core.audit.internal.Canonical;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Reads audit records in order, decrypting payloads with the keys given (any number: after a key
 * rotation, old records name their key by id). Without a key an encrypted record is still listed,
 * with its envelope and clear fields and {@link AuditEntry.Payload#ENCRYPTED}. Reading does not
 * verify: use {@link AuditVerifier} for that. A torn last line (a write in progress, or a crash) is
 * not returned.
 *
 * <p>Positions: {@link #read(Position, Consumer)} starts at a {@link Position} (segment number and
 * byte offset) and returns where it stopped, so a follower reads only what was appended since.
 */
public final class AuditReader {
  private static final Set<String> ENVELOPE = Set.of("seq", "at", "event", "prev", "hash", "enc", "payload");

  private final Path dir;
  private final Map<String, AuditCipher> keys = new LinkedHashMap<>();

  /**
   * @param dir the audit folder
   * @param keys the encryption keys this reader holds; may be empty
   */
  public AuditReader(Path dir, List<AuditCipher> keys) {
    this.dir = Objects.requireNonNull(dir, "dir");
    keys.forEach(k -> this.keys.put(k.keyId(), k));
  }

  /** Where a reader stopped: the segment number and the byte offset in it. */
  public record Position(int segment, long offset) {
    /** The start of the log. */
    public static final Position START = new Position(0, 0);
  }

  /** Every record, in order. */
  public List<AuditEntry> all() throws IOException {
    List<AuditEntry> out = new ArrayList<>();
    read(Position.START, out::add);
    return out;
  }

  /** The last {@code n} records (a full scan; the log is read once). */
  public List<AuditEntry> last(int n) throws IOException {
    java.util.ArrayDeque<AuditEntry> q = new java.util.ArrayDeque<>();
    read(Position.START, e -> {
      q.addLast(e);
      if (q.size() > n) {
        q.removeFirst();
      }
    });
    return List.copyOf(q);
  }

  /** Hands every complete record from {@code from} on to {@code sink}; returns the position after the last one. */
  public Position read(Position from, Consumer<AuditEntry> sink) throws IOException {
    Position at = from;
    for (Path segment : AuditVerifier.segments(dir)) {
      int number = AuditVerifier.segmentNumber(segment);
      if (number < from.segment()) {
        continue;
      }
      long offset = number == from.segment() ? from.offset() : 0;
      try (RandomAccessFile f = new RandomAccessFile(segment.toFile(), "r")) {
        if (offset > f.length()) {
          offset = 0; // replaced or truncated since: read it again
        }
        f.seek(offset);
        byte[] rest = new byte[(int) Math.min(Integer.MAX_VALUE - 8, f.length() - offset)];
        f.readFully(rest);
        int start = 0;
        for (int i = 0; i < rest.length; i++) {
          if (rest[i] == '\n') {
            String line = new String(rest, start, i - start, StandardCharsets.UTF_8);
            entry(line).ifPresent(sink);
            start = i + 1;
          }
        }
        at = new Position(number, offset + start);
      }
    }
    return at;
  }

  /** One stored line as an entry; empty when it is not a record (a verifier names those). */
  public Optional<AuditEntry> entry(String line) {
    ObjectNode n;
    try {
      n = Canonical.parse(line);
    } catch (Exception e) {
      return Optional.empty();
    }
    long seq = n.path("seq").asLong(-1);
    String at = n.path("at").asText("");
    String event = n.path("event").asText("");
    Map<String, Object> fields = new LinkedHashMap<>();
    for (Iterator<Map.Entry<String, JsonNode>> it = n.fields(); it.hasNext();) {
      Map.Entry<String, JsonNode> f = it.next();
      if (!ENVELOPE.contains(f.getKey())) {
        fields.put(f.getKey(), value(f.getValue()));
      }
    }
    String hash = n.path("hash").asText("");
    if (!n.has("enc")) {
      return Optional.of(new AuditEntry(seq, at, event, fields, AuditEntry.Payload.CLEAR, Optional.empty(), Optional.empty(), hash));
    }
    String keyId = n.path("enc").asText("");
    AuditCipher key = keys.get(keyId);
    if (key == null) {
      String why = keys.isEmpty() ? "encrypted with key " + keyId + "; no decryption key given"
          : "encrypted with key " + keyId + "; the key(s) given have id " + String.join(", ", keys.keySet());
      return Optional.of(new AuditEntry(seq, at, event, fields, AuditEntry.Payload.ENCRYPTED, Optional.of(keyId), Optional.of(why), hash));
    }
    try {
      byte[] plain = key.decrypt(seq, event, at, n.path("payload").asText(""));
      ObjectNode p = Canonical.parse(new String(plain, StandardCharsets.UTF_8));
      for (Iterator<Map.Entry<String, JsonNode>> it = p.fields(); it.hasNext();) {
        Map.Entry<String, JsonNode> f = it.next();
        fields.put(f.getKey(), value(f.getValue()));
      }
      return Optional.of(new AuditEntry(seq, at, event, fields, AuditEntry.Payload.DECRYPTED, Optional.of(keyId), Optional.empty(), hash));
    } catch (Exception e) {
      return Optional.of(new AuditEntry(seq, at, event, fields, AuditEntry.Payload.UNREADABLE, Optional.of(keyId),
          Optional.of(e instanceof IllegalArgumentException ? e.getMessage() : "the decrypted payload is not a record"), hash));
    }
  }

  private static Object value(JsonNode v) {
    if (v.isIntegralNumber()) {
      return v.asLong();
    }
    if (v.isBoolean()) {
      return v.asBoolean();
    }
    return v.asText();
  }
}
