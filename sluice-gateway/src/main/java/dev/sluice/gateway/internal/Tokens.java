package dev.sluice.gateway.internal;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Bearer-token checks in constant time: every known token is compared (SHA-256 digests, so the
 * length of a token leaks nothing either), with no early exit. Holds digests only, never tokens.
 */
public final class Tokens {
  private final Map<String, byte[]> digestByOwner = new LinkedHashMap<>();

  /** @param tokenByOwner owner id (agent id, or "operator") to its token */
  public Tokens(Map<String, String> tokenByOwner) {
    tokenByOwner.forEach((owner, token) -> digestByOwner.put(owner, digest(token)));
  }

  /** The owner whose token this is, or empty. */
  public Optional<String> owner(String presented) {
    byte[] d = digest(presented);
    String found = null;
    for (Map.Entry<String, byte[]> e : digestByOwner.entrySet()) {
      if (MessageDigest.isEqual(d, e.getValue()) & found == null) {
        found = e.getKey();
      }
    }
    return Optional.ofNullable(found);
  }

  /** The token of an {@code Authorization: Bearer <token>} value, or empty when it has another form. */
  public static Optional<String> bearer(String authorization) {
    if (authorization == null || authorization.length() < 8 || !authorization.regionMatches(true, 0, "Bearer ", 0, 7)) {
      return Optional.empty();
    }
    String t = authorization.substring(7).trim();
    return t.isEmpty() ? Optional.empty() : Optional.of(t);
  }

  private static byte[] digest(String s) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing from this JVM", e);
    }
  }
}
