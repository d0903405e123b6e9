package dev.sluice.core.audit;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Objects;
import javax.crypto.AEADBadTagException;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * The AES-256-GCM key that encrypts audit payloads at rest (JDK crypto only). A key is 32 random
 * bytes, written as base64 (std or url-safe, one line) in a file or an environment variable;
 * {@code sluice audit keygen --encryption} makes one.
 *
 * <p>Its {@linkplain #keyId() key id} (16 hex digits of {@code SHA-256("sluice-audit-key\n" ‖ key)})
 * is stored in clear in every encrypted record ({@code enc}), so a reader holding several keys
 * (after a rotation) picks the right one, and a wrong key is named, not guessed at.
 *
 * <p><b>Nonces are never reused under one key.</b> The 96-bit GCM nonce of a record is its
 * sequence number (8 bytes, big-endian) followed by a 4-byte salt drawn from {@link SecureRandom}
 * each time a writer opens the log ({@link #newSalt()}). Within one writer, sequence numbers strictly
 * increase, so nonces differ; two writers (a restart continuing the chain, or a new log started with
 * the same key after the old one was moved aside) only collide if they draw the same salt and write
 * the same seq, a chance of 2^-32 per pair of writers. The nonce is stored with the ciphertext.
 *
 * <p>The associated data binds the ciphertext to its place: {@code "sluice-audit-payload\n" ‖ seq ‖
 * "\n" ‖ event ‖ "\n" ‖ at}, so a payload moved to another record does not decrypt. Instances never
 * print the key ({@link #toString()} shows the id only).
 */
public final class AuditCipher {
  /** Length of a key in bytes. */
  public static final int KEY_BYTES = 32;
  private static final int NONCE_BYTES = 12;
  private static final int TAG_BITS = 128;
  private static final SecureRandom RANDOM = new SecureRandom();

  private final SecretKeySpec key;
  private final String keyId;

  private AuditCipher(byte[] raw) {
    if (raw.length != KEY_BYTES) {
      throw new IllegalArgumentException("an audit encryption key is " + KEY_BYTES + " bytes (base64 of 32 random bytes), got " + raw.length + " bytes");
    }
    this.key = new SecretKeySpec(raw, "AES");
    this.keyId = idOf(raw);
    Arrays.fill(raw, (byte) 0);
  }

  /** A new random key. */
  public static AuditCipher generate() {
    byte[] raw = new byte[KEY_BYTES];
    RANDOM.nextBytes(raw);
    return new AuditCipher(raw);
  }

  /**
   * A key from its base64 text (std or url-safe, padding optional, surrounding whitespace ignored).
   *
   * @throws IllegalArgumentException without quoting the text
   */
  public static AuditCipher parse(String base64) {
    Objects.requireNonNull(base64, "base64");
    String t = base64.strip();
    byte[] raw;
    try {
      raw = (t.indexOf('-') >= 0 || t.indexOf('_') >= 0 ? Base64.getUrlDecoder() : Base64.getDecoder()).decode(t);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("not an audit encryption key: expected base64 of " + KEY_BYTES + " random bytes");
    }
    return new AuditCipher(raw);
  }

  /** A key from a file holding its base64 text. */
  public static AuditCipher read(Path file) throws IOException {
    return parse(Files.readString(file, StandardCharsets.US_ASCII));
  }

  /** The key as base64 text, for writing it to a key file (the only way to get the key out). */
  public String exportBase64() {
    return Base64.getEncoder().encodeToString(key.getEncoded());
  }

  public String keyId() {
    return keyId;
  }

  /** A fresh salt for one writer: the last 4 bytes of every nonce it makes. */
  public static int newSalt() {
    return RANDOM.nextInt();
  }

  /**
   * Encrypts one record's payload.
   *
   * @return base64url (no padding) of {@code nonce ‖ ciphertext ‖ tag}
   */
  public String encrypt(long seq, int salt, String event, String at, byte[] plaintext) {
    byte[] nonce = ByteBuffer.allocate(NONCE_BYTES).putLong(seq).putInt(salt).array();
    try {
      Cipher c = Cipher.getInstance("AES/GCM/NoPadding");
      c.init(Cipher.ENCRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, nonce));
      c.updateAAD(aad(seq, event, at));
      byte[] ct = c.doFinal(plaintext);
      return Base64.getUrlEncoder().withoutPadding().encodeToString(ByteBuffer.allocate(NONCE_BYTES + ct.length).put(nonce).put(ct).array());
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("AES-GCM encryption failed: " + e.getMessage(), e);
    }
  }

  /**
   * Decrypts a payload written by {@link #encrypt}.
   *
   * @throws IllegalArgumentException when it does not decrypt with this key at this place (wrong key,
   *     modified bytes, or moved from another record)
   */
  public byte[] decrypt(long seq, String event, String at, String payload) {
    try {
      byte[] all = Base64.getUrlDecoder().decode(payload);
      if (all.length < NONCE_BYTES + TAG_BITS / 8) {
        throw new IllegalArgumentException("the encrypted payload is too short");
      }
      Cipher c = Cipher.getInstance("AES/GCM/NoPadding");
      c.init(Cipher.DECRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, all, 0, NONCE_BYTES));
      c.updateAAD(aad(seq, event, at));
      return c.doFinal(all, NONCE_BYTES, all.length - NONCE_BYTES);
    } catch (AEADBadTagException e) {
      throw new IllegalArgumentException("the payload does not decrypt with key " + keyId + " (wrong key, or the record was modified)");
    } catch (GeneralSecurityException | IllegalArgumentException e) {
      throw new IllegalArgumentException("the payload cannot be decrypted: " + e.getMessage());
    }
  }

  @Override
  public String toString() {
    return "AuditCipher[key id " + keyId + "]";
  }

  private static byte[] aad(long seq, String event, String at) {
    return ("sluice-audit-payload\n" + seq + "\n" + event + "\n" + at).getBytes(StandardCharsets.UTF_8);
  }

  private static String idOf(byte[] raw) {
    try {
      MessageDigest d = MessageDigest.getInstance("SHA-256");
      d.update("sluice-audit-key\n".getBytes(StandardCharsets.US_ASCII));
      return HexFormat.of().formatHex(d.digest(raw)).substring(0, 16);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }
}
