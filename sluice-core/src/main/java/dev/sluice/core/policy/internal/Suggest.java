package dev.sluice.core.policy.internal;

import java.util.Collection;
import java.util.Locale;
import java.util.Optional;

/** "Did you mean" for misspelt keys and names. */
public final class Suggest {
  /** Largest edit distance still offered as a suggestion. */
  static final int MAX_DISTANCE = 2;

  private Suggest() {}

  /**
   * The candidate closest to what was written, when it is close enough: same text ignoring case
   * and {@code -}/{@code _}, or an optimal-string-alignment distance of at most 2 (at most 1 when
   * the shorter word has fewer than six letters, where two edits would make almost anything
   * "close").
   */
  public static Optional<String> closest(String written, Collection<String> candidates) {
    if (written == null || written.length() > 200) {
      return Optional.empty();
    }
    String w = fold(written);
    String best = null;
    int bestDistance = Integer.MAX_VALUE;
    for (String c : candidates) {
      String f = fold(c);
      int d = f.equals(w) ? 0 : distance(w, f);
      int limit = Math.min(MAX_DISTANCE, Math.max(1, Math.min(w.length(), f.length()) / 3));
      if (d <= limit && d < bestDistance) {
        best = c;
        bestDistance = d;
      }
    }
    return Optional.ofNullable(best);
  }

  /** {@code ; did you mean 'x'?} or the empty string. */
  public static String didYouMean(String written, Collection<String> candidates) {
    return closest(written, candidates).map(c -> "; did you mean '" + c + "'?").orElse("");
  }

  private static String fold(String s) {
    return s.toLowerCase(Locale.ROOT).replace('-', '_');
  }

  /** Optimal string alignment distance: insertions, deletions, substitutions, adjacent transpositions. */
  static int distance(String a, String b) {
    int n = a.length();
    int m = b.length();
    if (Math.abs(n - m) > MAX_DISTANCE) {
      return Math.abs(n - m);
    }
    int[][] d = new int[n + 1][m + 1];
    for (int i = 0; i <= n; i++) {
      d[i][0] = i;
    }
    for (int j = 0; j <= m; j++) {
      d[0][j] = j;
    }
    for (int i = 1; i <= n; i++) {
      for (int j = 1; j <= m; j++) {
        int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
        int v = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
        if (i > 1 && j > 1 && a.charAt(i - 1) == b.charAt(j - 2) && a.charAt(i - 2) == b.charAt(j - 1)) {
          v = Math.min(v, d[i - 2][j - 2] + 1);
        }
        d[i][j] = v;
      }
    }
    return d[n][m];
  }
}
