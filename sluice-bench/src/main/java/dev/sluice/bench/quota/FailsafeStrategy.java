package dev.sluice.bench.quota;

import dev.failsafe.Failsafe;
import dev.failsafe.FailsafeExecutor;
import dev.failsafe.RetryPolicy;
import java.time.Duration;

/**
 * Failsafe 3.3.2 as its documentation shows it: a {@link RetryPolicy} on the retryable statuses of
 * {@link Http.Reply#retryable()} with its default budget (2 retries, so 3 attempts), exponential
 * backoff 500 ms to 8 s with 25% jitter, and {@code withDelayFn} returning the last result's {@code
 * Retry-After} when present (a null there falls back to the backoff). No rate limiter: the
 * benchmarks issue configures Failsafe by its retry policy alone (Resilience4j is the peer that
 * pairs a retry with a limiter).
 */
final class FailsafeStrategy implements Strategy {
  static final int MAX_RETRIES = 2;

  @Override
  public String name() {
    return "failsafe";
  }

  @Override
  public Client open(Setup setup) {
    Http http = new Http(setup.base());
    RetryPolicy<Http.Reply> policy = RetryPolicy.<Http.Reply>builder()
        .handleResultIf(Http.Reply::retryable)
        .withMaxRetries(MAX_RETRIES)
        .withBackoff(Duration.ofMillis(500), Duration.ofSeconds(8))
        .withJitter(0.25)
        .withDelayFn(ctx -> {
          Http.Reply last = ctx.getLastResult();
          return last != null ? last.retryAfter().orElse(null) : null;
        })
        .build();
    FailsafeExecutor<Http.Reply> executor = Failsafe.with(policy);
    return new Client() {
      @Override
      public boolean perform(Action a) {
        return executor.get(() -> http.send(a)).ok();
      }

      @Override
      public void close() {
        http.close();
      }
    };
  }
}
