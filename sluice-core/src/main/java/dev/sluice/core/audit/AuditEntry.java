package dev.sluice.core.audit;

import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * One audit record as a reader sees it (see {@link AuditReader}).
 *
 * @param seq its sequence number
 * @param at when it was written (ISO-8601, UTC)
 * @param event its event name ({@code action_requested}, {@code checkpoint}, …)
 * @param fields its fields without the envelope ({@code seq, at, event, prev, hash, enc, payload}):
 *     for an encrypted record the clear ones ({@code task}, {@code action}) plus, once decrypted, the rest
 * @param payload whether the payload was in clear, decrypted, or is still encrypted
 * @param keyId the encryption key id of an encrypted record
 * @param note why an encrypted payload was not decrypted ({@code ENCRYPTED}, {@code UNREADABLE}), else empty
 * @param hash the record's stored hash
 */
public record AuditEntry(long seq, String at, String event, Map<String, Object> fields, Payload payload, Optional<String> keyId,
    Optional<String> note, String hash) {
  public AuditEntry {
    Objects.requireNonNull(at, "at");
    Objects.requireNonNull(event, "event");
    fields = Map.copyOf(fields);
    Objects.requireNonNull(payload, "payload");
    Objects.requireNonNull(keyId, "keyId");
    Objects.requireNonNull(note, "note");
    Objects.requireNonNull(hash, "hash");
  }

  /** The state of a record's payload for this reader. */
  public enum Payload {
    /** Written without encryption. */
    CLEAR,
    /** Encrypted at rest and decrypted with a key the reader holds. */
    DECRYPTED,
    /** Encrypted with a key the reader does not hold (or no key was given). */
    ENCRYPTED,
    /** Encrypted with a key whose id matches one the reader holds, but it does not decrypt: modified, or the wrong key. */
    UNREADABLE;

    public String label() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }
  }

  /**
   * The entry as a JSON-ready map: {@code seq, at, event, payload} (clear, decrypted, encrypted,
   * unreadable), {@code key_id} and {@code note} when set, {@code fields}, {@code hash}. The form of
   * {@code sluice audit tail --json} and of the gateway's {@code GET /v1/audit}.
   */
  public Map<String, Object> toJson() {
    Map<String, Object> m = new java.util.LinkedHashMap<>();
    m.put("seq", seq);
    m.put("at", at);
    m.put("event", event);
    m.put("payload", payload.label());
    keyId.ifPresent(k -> m.put("key_id", k));
    note.ifPresent(n -> m.put("note", n));
    m.put("fields", new java.util.TreeMap<>(fields));
    m.put("hash", hash);
    return m;
  }

  /** One line for a terminal: seq, time, event, the fields as key=value, and the payload state when not readable. */
  public String toLine() {
    StringBuilder b = new StringBuilder();
    b.append(String.format("%6d  %s  %-26s", seq, at, event));
    new java.util.TreeMap<>(fields).forEach((k, v) -> b.append(' ').append(k).append('=').append(v));
    if (payload == Payload.ENCRYPTED || payload == Payload.UNREADABLE) {
      b.append("  [").append(payload.label()).append(note.map(n -> ": " + n).orElse("")).append(']');
    }
    return b.toString().stripTrailing();
  }

  /** A field's text, if present. */
  public Optional<String> text(String field) {
    return Optional.ofNullable(fields.get(field)).map(String::valueOf);
  }
}
