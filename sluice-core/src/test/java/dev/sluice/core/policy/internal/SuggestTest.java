package dev.sluice.core.policy.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Did-you-mean suggestions are offered for near misses only. */
class SuggestTest {
  static final List<String> KEYS = List.of("max_attempts", "max_wait_seconds", "retry_statuses");

  @Test
  void nearMissesAreSuggested() {
    assertThat(Suggest.closest("max_atempts", KEYS)).contains("max_attempts");
    assertThat(Suggest.closest("max_attemtps", KEYS)).contains("max_attempts");
    assertThat(Suggest.closest("retry_status", KEYS)).contains("retry_statuses");
    assertThat(Suggest.closest("Max-Attempts", KEYS)).contains("max_attempts");
  }

  @Test
  void farOffWordsAreNot() {
    assertThat(Suggest.closest("timeout", KEYS)).isEmpty();
    assertThat(Suggest.closest("max", KEYS)).isEmpty();
    assertThat(Suggest.closest("rat", List.of("url"))).isEmpty();
  }

  @Test
  void distanceCountsATranspositionAsOneEdit() {
    assertThat(Suggest.distance("ab", "ba")).isEqualTo(1);
    assertThat(Suggest.distance("kitten", "sitting")).isEqualTo(3);
  }
}
