package dev.sluice.core.engine;

import static dev.sluice.core.engine.DispatcherGatesTest.maxInWindow;
import static dev.sluice.core.engine.EngineFixture.SCOPE;
import static dev.sluice.core.engine.EngineFixture.read;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Regression: the pacer only logged sends made while it knew a rate, so the probe that taught it
 * the quota (and anything sent before) did not count in the first window, and the provider saw
 * {@code q + 1} requests in it. Found at the fake provider by the 50-task quota acceptance test.
 */
class SendsBeforeTheQuotaWasLearnedRegressionTest {

  @Test
  void sendsMadeBeforeTheQuotaWasLearnedCountInItsWindow() {
    // The provider publishes 5 requests per second; nothing is configured. Answers take no time.
    EngineFixture fx = new EngineFixture(Duration.ZERO,
        r -> RecordingTransport.status(200, "RateLimit-Policy", "\"default\";q=5;w=1", "RateLimit", "\"default\";r=4;t=1"),
        ScopeSettings.of(SCOPE, 4, 100));
    for (int i = 0; i < 20; i++) {
      fx.engine.submit(read("t" + i));
    }
    fx.clock.advance(Duration.ofSeconds(30));
    List<Instant> sends = fx.transport.sendTimes();
    assertThat(sends).hasSize(20);
    assertThat(maxInWindow(sends, Duration.ofSeconds(1))).isLessThanOrEqualTo(5);
  }
}
