package dev.sluice.bench.quota;

import io.github.resilience4j.core.IntervalBiFunction;
import io.github.resilience4j.core.IntervalFunction;
import io.github.resilience4j.ratelimiter.RateLimiter;
import io.github.resilience4j.ratelimiter.RateLimiterConfig;
import io.github.resilience4j.retry.Retry;
import io.github.resilience4j.retry.RetryConfig;
import java.time.Duration;
import java.util.function.Supplier;

/**
 * Resilience4j 2.4.0 as its documentation shows it for an HTTP client: a {@link Retry} with
 * exponential random backoff (its defaults: 3 attempts, 500 ms initial interval; multiplier 2,
 * randomization 0.5) whose {@link IntervalBiFunction} honours {@code Retry-After} when the last
 * result carries it, retrying on the retryable statuses of {@link Http.Reply#retryable()}; inside it
 * (so each attempt takes a permit) a {@link RateLimiter} set to the published quota.
 *
 * <p>The limiter is a fixed-window one ({@code limitForPeriod} permits per {@code
 * limitRefreshPeriod}). We give it the most favourable reading of "R per second, burst B": {@code B}
 * permits every {@code B/R} seconds (10 per 200 ms for 50/s burst 10), rather than 50 per second,
 * which would let 50 leave back to back against a bucket of 10. Workers wait for a permit as long
 * as needed (timeout 10 minutes). Windows start at the limiter's creation, not in phase with the
 * provider's bucket; that misalignment is inherent to a client-side fixed window.
 */
final class Resilience4jStrategy implements Strategy {
  static final int MAX_ATTEMPTS = 3;
  static final Duration INITIAL_INTERVAL = Duration.ofMillis(500);

  @Override
  public String name() {
    return "resilience4j";
  }

  @Override
  public Client open(Setup setup) {
    Http http = new Http(setup.base());
    IntervalFunction backoff = IntervalFunction.ofExponentialRandomBackoff(INITIAL_INTERVAL, 2.0, 0.5);
    IntervalBiFunction<Http.Reply> interval = (attempt, either) -> {
      if (either.isRight() && either.get().retryAfter().isPresent()) {
        return either.get().retryAfter().get().toMillis();
      }
      return backoff.apply(attempt);
    };
    Retry retry = Retry.of("bench", RetryConfig.<Http.Reply>custom().maxAttempts(MAX_ATTEMPTS).retryOnResult(Http.Reply::retryable)
        .intervalBiFunction(interval).build());
    long periodNanos = Math.max(1, (long) (1e9 * setup.burst() / setup.rate()));
    RateLimiter limiter = RateLimiter.of("bench", RateLimiterConfig.custom().limitForPeriod(setup.burst())
        .limitRefreshPeriod(Duration.ofNanos(periodNanos)).timeoutDuration(Duration.ofMinutes(10)).build());
    return new Client() {
      @Override
      public boolean perform(Action a) {
        Supplier<Http.Reply> attempt = RateLimiter.decorateSupplier(limiter, () -> {
          try {
            return http.send(a);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Http.Reply(-1, java.util.Optional.empty());
          }
        });
        return Retry.decorateSupplier(retry, attempt).get().ok();
      }

      @Override
      public void close() {
        http.close();
      }
    };
  }
}
