package dev.sluice.core.retry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.SplittableRandom;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import org.junit.jupiter.api.Test;

class BackoffTest {
  private final Backoff seed = Backoff.SEED_DEFAULT;

  @Test
  void windowDoublesFromTwiceTheBaseForTheFirstRetryUpToTheCap() {
    assertThat(seed.window(1)).isEqualTo(Duration.ofSeconds(2));
    assertThat(seed.window(2)).isEqualTo(Duration.ofSeconds(4));
    assertThat(seed.window(3)).isEqualTo(Duration.ofSeconds(8));
    assertThat(seed.window(5)).isEqualTo(Duration.ofSeconds(32));
    assertThat(seed.window(6)).isEqualTo(Duration.ofSeconds(60));
    assertThat(seed.window(1000)).isEqualTo(Duration.ofSeconds(60));
  }

  @Test
  void sampleUsesTheInjectedRandomSourceExactly() {
    // nextDouble() = 0.25 in a window of 8 s gives exactly 2 s.
    var fixed = new FixedRandom(0.25);
    assertThat(seed.sample(3, fixed)).isEqualTo(Duration.ofSeconds(2));
    assertThat(seed.sample(3, new FixedRandom(0.0))).isEqualTo(Duration.ZERO);
  }

  @Test
  void invalidSettingsAreRefusedWithTheValues() {
    assertThatThrownBy(() -> new Backoff(Duration.ZERO, Duration.ofSeconds(1))).hasMessageContaining("positive");
    assertThatThrownBy(() -> new Backoff(Duration.ofSeconds(5), Duration.ofSeconds(1))).hasMessageContaining("at least base");
    assertThatThrownBy(() -> seed.window(0)).hasMessageContaining("start at 1");
  }

  @Property(tries = 500)
  void sampleAlwaysLiesInItsWindow(@ForAll @IntRange(min = 1, max = 200) int retry,
                                   @ForAll @LongRange(min = 1, max = 10_000) long baseMs,
                                   @ForAll @LongRange(min = 0, max = 1_000_000) long extraMs,
                                   @ForAll long seedValue) {
    Backoff b = new Backoff(Duration.ofMillis(baseMs), Duration.ofMillis(baseMs + extraMs));
    Duration window = b.window(retry);
    Duration d = b.sample(retry, new SplittableRandom(seedValue));
    assertThat(d).isBetween(Duration.ZERO, window);
    assertThat(window).isLessThanOrEqualTo(b.max());
  }

  /** A random source whose nextDouble is fixed: makes jitter exact in tests. */
  static final class FixedRandom implements java.util.random.RandomGenerator {
    private final double value;

    FixedRandom(double value) {
      this.value = value;
    }

    @Override
    public long nextLong() {
      return (long) (value * Long.MAX_VALUE);
    }

    @Override
    public double nextDouble() {
      return value;
    }
  }
}
