package dev.sluice.bench.quota;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

class PercentileTest {
  @Test
  void p99OfAHundredSamplesIsTheNinetyNinthSmallest() {
    long[] s = LongStream.rangeClosed(1, 100).map(i -> 101 - i).toArray(); // 100..1, unsorted
    assertThat(Percentile.of(s, 0.99)).isEqualTo(99);
    assertThat(Percentile.of(s, 1.0)).isEqualTo(100);
    assertThat(Percentile.of(s, 0.5)).isEqualTo(50);
  }

  @Test
  void withFewSamplesTheP99IsTheLargest() {
    assertThat(Percentile.of(new long[] {5, 1, 3}, 0.99)).isEqualTo(5);
    assertThat(Percentile.of(new long[] {7}, 0.01)).isEqualTo(7);
  }

  @Test
  void noSamplesGiveZeroAndTheInputIsNotReordered() {
    assertThat(Percentile.of(new long[0], 0.99)).isZero();
    long[] s = {3, 1, 2};
    Percentile.of(s, 0.5);
    assertThat(s).containsExactly(3, 1, 2);
  }

  @Test
  void refusesAPercentileOutsideZeroToOne() {
    assertThatThrownBy(() -> Percentile.of(new long[] {1}, 0)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> Percentile.of(new long[] {1}, 1.5)).isInstanceOf(IllegalArgumentException.class);
  }
}
