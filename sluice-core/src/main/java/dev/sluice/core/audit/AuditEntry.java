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

  /** A field's text, if present. */
  public Optional<String> text(String field) {
    return Optional.ofNullable(fields.get(field)).map(String::valueOf);
  }
}
