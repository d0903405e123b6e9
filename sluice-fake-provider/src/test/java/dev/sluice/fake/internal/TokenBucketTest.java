package dev.sluice.fake.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.fake.Quota;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The bucket's integer arithmetic, without HTTP. */
class TokenBucketTest {

  static final long S = 1_000_000_000L;

  static int takeAll(TokenBucket b, long now) {
    int n = 0;
    while (b.has(1, now)) {
      b.take(1);
      n++;
    }
    return n;
  }

  @Test
  void anAwkwardRateRefillsExactlyWithoutDrift() {
    // 3 per 7 s: one token every 7/3 s, which no binary fraction represents exactly.
    TokenBucket b = new TokenBucket(new Quota(3, Duration.ofSeconds(7), 3), 0);
    assertThat(takeAll(b, 0)).isEqualTo(3);
    long total = 0;
    for (long t = 1; t <= 7_000; t++) { // every second for 7000 s
      total += takeAll(b, t * S);
    }
    assertThat(total).isEqualTo(3_000);
    assertThat(b.remaining()).isZero();
    // The bucket is exactly empty; one token takes 7/3 s = 2333333333.33 ns, rounded up.
    assertThat(b.nanosUntilAvailable(1)).isEqualTo(2_333_333_334L);
  }

  @Test
  void timeBeforeTheLastRefillAddsNothing() {
    TokenBucket b = new TokenBucket(Quota.perSecond(1, 1), 10 * S);
    b.has(1, 10 * S);
    b.take(1);
    assertThat(b.has(1, 5 * S)).isFalse(); // the clock went back
    assertThat(b.has(1, 11 * S - 1)).isFalse();
    assertThat(b.has(1, 11 * S)).isTrue();
  }

  @Test
  void aCostAboveTheBurstIsClampedSoItCanSucceedFromAFullBucket() {
    TokenBucket b = new TokenBucket(Quota.perSecond(10, 10), 0);
    assertThat(b.has(50, 0)).isTrue();
    b.take(50);
    assertThat(b.remaining()).isZero();
    assertThat(b.nanosUntilFull()).isEqualTo(S);
  }

  @Test
  void aVeryLongIdleNeverOverflows() {
    TokenBucket b = new TokenBucket(new Quota(1_000_000, Duration.ofSeconds(1), 1_000_000), 0);
    b.has(1, 0);
    b.take(1);
    assertThat(b.has(1_000_000, Long.MAX_VALUE / 2)).isTrue();
    assertThat(b.remaining()).isEqualTo(1_000_000);
  }
}
