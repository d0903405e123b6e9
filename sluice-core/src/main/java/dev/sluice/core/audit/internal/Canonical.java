package dev.sluice.core.audit.internal;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;
import java.util.TreeMap;

/**
 * The audit log's byte-level format, shared by the writer and the verifier so they cannot drift.
 *
 * <p>A stored line is {@code BODY} with its closing brace replaced by {@code ,"hash":"<64 hex>"}}
 * and a newline. {@code BODY} — the <em>canonical bytes</em> of the record without its hash — is
 * the record as a JSON object with its keys sorted by code point, no whitespace, UTF-8, as Jackson
 * writes a sorted map of strings, numbers and booleans. The hash is {@code SHA-256(prev ‖ seq ‖
 * BODY)} where {@code prev} is the 32 raw bytes of the previous record's hash (32 zero bytes for
 * the first record) and {@code seq} the record's sequence number as 8 bytes big-endian.
 */
public final class Canonical {
  public static final String GENESIS = "0".repeat(64);
  private static final ObjectMapper JSON = new ObjectMapper().configure(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS, true);

  private Canonical() {}

  /** The canonical bytes of {@code fields} (a flat map of strings, numbers and booleans). */
  public static String body(Map<String, Object> fields) {
    try {
      return JSON.writeValueAsString(new TreeMap<>(fields));
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("audit fields are not serialisable: " + e.getOriginalMessage(), e);
    }
  }

  /** The stored line (without its newline) of {@code body} and its {@code hash}. */
  public static String line(String body, String hash) {
    return body.substring(0, body.length() - 1) + ",\"hash\":\"" + hash + "\"}";
  }

  public static String hash(String prevHex, long seq, String body) {
    try {
      MessageDigest d = MessageDigest.getInstance("SHA-256");
      d.update(HexFormat.of().parseHex(prevHex));
      d.update(ByteBuffer.allocate(8).putLong(seq).array());
      d.update(body.getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(d.digest());
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is not available", e);
    }
  }

  public static ObjectNode parse(String text) throws JsonProcessingException {
    JsonNode n = JSON.readTree(text);
    if (n == null || !n.isObject()) {
      throw new IllegalArgumentException("not a JSON object");
    }
    return (ObjectNode) n;
  }

  /** The signed message of a checkpoint over the record {@code seq} whose hash is {@code hash}. */
  public static byte[] checkpointMessage(long seq, String hash) {
    return ("sluice-audit-checkpoint\n" + seq + "\n" + hash).getBytes(StandardCharsets.UTF_8);
  }
}
