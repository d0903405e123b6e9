package dev.sluice.core.audit;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.MessageDigest;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.spec.PKCS8EncodedKeySpec;
import java.security.spec.X509EncodedKeySpec;
import java.util.Base64;
import java.util.HexFormat;

/**
 * Ed25519 keys for signed checkpoints, in PEM: the private key as PKCS#8 ({@code PRIVATE KEY}),
 * the public key as X.509 SubjectPublicKeyInfo ({@code PUBLIC KEY}), as {@code openssl genpkey
 * -algorithm ed25519} writes them. Errors never quote the key material.
 */
public final class AuditKeys {
  private AuditKeys() {}

  public static KeyPair generate() {
    try {
      return KeyPairGenerator.getInstance("Ed25519").generateKeyPair();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("Ed25519 is not available in this JDK", e);
    }
  }

  public static String privatePem(PrivateKey key) {
    return pem("PRIVATE KEY", key.getEncoded());
  }

  public static String publicPem(PublicKey key) {
    return pem("PUBLIC KEY", key.getEncoded());
  }

  /** Reads a PKCS#8 PEM (or bare base64) Ed25519 private key, e.g. from a file or an environment variable. */
  public static PrivateKey parsePrivate(String text) {
    try {
      return KeyFactory.getInstance("Ed25519").generatePrivate(new PKCS8EncodedKeySpec(der(text)));
    } catch (GeneralSecurityException | IllegalArgumentException e) {
      throw new IllegalArgumentException("not an Ed25519 private key in PKCS#8 PEM form");
    }
  }

  public static PublicKey parsePublic(String text) {
    try {
      return KeyFactory.getInstance("Ed25519").generatePublic(new X509EncodedKeySpec(der(text)));
    } catch (GeneralSecurityException | IllegalArgumentException e) {
      throw new IllegalArgumentException("not an Ed25519 public key in X.509 PEM form");
    }
  }

  public static PrivateKey readPrivate(Path file) throws IOException {
    return parsePrivate(Files.readString(file, StandardCharsets.US_ASCII));
  }

  public static PublicKey readPublic(Path file) throws IOException {
    return parsePublic(Files.readString(file, StandardCharsets.US_ASCII));
  }

  /** The public key of a private one (Ed25519 derives it from the seed). */
  public static PublicKey publicOf(PrivateKey key) {
    try {
      // The JDK has no direct derivation API; the PKCS#8 v2 form is not guaranteed, so sign-and-derive
      // is avoided: EdECPrivateKey's bytes are the seed, and a fresh generator seeded with them
      // yields the same public key.
      byte[] seed = ((java.security.interfaces.EdECPrivateKey) key).getBytes().orElseThrow();
      KeyPairGenerator g = KeyPairGenerator.getInstance("Ed25519");
      g.initialize(java.security.spec.NamedParameterSpec.ED25519, new FixedRandom(seed));
      return g.generateKeyPair().getPublic();
    } catch (GeneralSecurityException | RuntimeException e) {
      throw new IllegalArgumentException("cannot derive the public key of this Ed25519 key");
    }
  }

  /** A short, stable id of a public key: the first 16 hex digits of SHA-256 of its X.509 bytes. */
  public static String keyId(PublicKey key) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(key.getEncoded())).substring(0, 16);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  private static byte[] der(String text) {
    String b64 = text.replaceAll("-----[A-Z ]+-----", "").replaceAll("\\s", "");
    return Base64.getDecoder().decode(b64);
  }

  private static String pem(String type, byte[] der) {
    return "-----BEGIN " + type + "-----\n" + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(der)
        + "\n-----END " + type + "-----\n";
  }

  /** Hands out the given seed as the generator's randomness, so the key pair is the seed's. */
  private static final class FixedRandom extends java.security.SecureRandom {
    private final byte[] seed;

    FixedRandom(byte[] seed) {
      this.seed = seed.clone();
    }

    @Override
    public void nextBytes(byte[] bytes) {
      System.arraycopy(seed, 0, bytes, 0, Math.min(seed.length, bytes.length));
    }
  }
}
