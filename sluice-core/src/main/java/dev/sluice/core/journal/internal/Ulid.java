package dev.sluice.core.journal.internal;

import java.security.SecureRandom;
import java.time.Instant;

/**
 * ULIDs (https://github.com/ulid/spec): 48 bits of Unix milliseconds then 80 random bits, in
 * Crockford base32. Random from a {@link SecureRandom}: ids may appear in operator URLs, and a
 * guessable id would be a needless gift.
 */
public final class Ulid {
  private static final char[] ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ".toCharArray();
  private static final SecureRandom RANDOM = new SecureRandom();
  private static final long MAX_MILLIS = (1L << 48) - 1;

  private Ulid() {}

  /** A new ULID for the millisecond of {@code at}. */
  public static String generate(Instant at) {
    long millis = at.toEpochMilli();
    if (millis < 0 || millis > MAX_MILLIS) {
      throw new IllegalArgumentException("a ULID's time must lie between 1970 and the year 10889, got " + at);
    }
    byte[] random = new byte[10];
    RANDOM.nextBytes(random);
    char[] out = new char[26];
    // 10 characters of time (50 bits, the top 2 always zero), most significant first.
    for (int i = 9; i >= 0; i--) {
      out[i] = ALPHABET[(int) (millis & 31)];
      millis >>>= 5;
    }
    // 16 characters of randomness: 80 bits, 5 at a time.
    long hi = ((random[0] & 0xFFL) << 32) | ((random[1] & 0xFFL) << 24) | ((random[2] & 0xFFL) << 16) | ((random[3] & 0xFFL) << 8) | (random[4] & 0xFFL);
    long lo = ((random[5] & 0xFFL) << 32) | ((random[6] & 0xFFL) << 24) | ((random[7] & 0xFFL) << 16) | ((random[8] & 0xFFL) << 8) | (random[9] & 0xFFL);
    for (int i = 17; i >= 10; i--) {
      out[i] = ALPHABET[(int) (hi & 31)];
      hi >>>= 5;
    }
    for (int i = 25; i >= 18; i--) {
      out[i] = ALPHABET[(int) (lo & 31)];
      lo >>>= 5;
    }
    return new String(out);
  }

  /** Whether the text is a canonical ULID: 26 upper-case Crockford characters, first at most '7'. */
  public static boolean isValid(String s) {
    if (s.length() != 26 || s.charAt(0) > '7') {
      return false;
    }
    for (int i = 0; i < s.length(); i++) {
      if (indexOf(s.charAt(i)) < 0) {
        return false;
      }
    }
    return true;
  }

  private static int indexOf(char c) {
    for (int i = 0; i < ALPHABET.length; i++) {
      if (ALPHABET[i] == c) {
        return i;
      }
    }
    return -1;
  }
}
