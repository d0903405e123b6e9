package dev.sluice.core.internal;

import dev.sluice.core.classify.Classifier;
import dev.sluice.core.engine.CircuitSettings;
import dev.sluice.core.engine.EngineSettings;
import dev.sluice.core.engine.RateSettings;
import dev.sluice.core.engine.ScopeSettings;
import dev.sluice.core.headers.AnthropicRateLimitReader;
import dev.sluice.core.headers.GitHubRateLimitReader;
import dev.sluice.core.headers.IetfRateLimitReader;
import dev.sluice.core.headers.LegacyRateLimitReader;
import dev.sluice.core.headers.OpenAiRateLimitReader;
import dev.sluice.core.headers.RateLimitReader;
import dev.sluice.core.policy.Policy;
import dev.sluice.core.policy.Provider;
import dev.sluice.core.policy.Rate;
import dev.sluice.core.retry.RetryPlanner;
import dev.sluice.core.scope.ScopeId;
import java.util.List;
import java.util.OptionalInt;
import java.util.random.RandomGenerator;

/** How one provider of a policy maps onto the engine: its scope's limits and its engine settings. */
public final class ProviderSetup {
  private ProviderSetup() {}

  /** The provider's shared scope. */
  public static ScopeId scopeId(Provider p) {
    return new ScopeId(p.id(), p.scope());
  }

  /**
   * The scope's limits: {@code shared_scope} gives concurrency and the delayed-queue bound; {@code
   * rate} the pacing, with {@code burst} defaulting to {@code requests} as docs/CONFIGURATION.md
   * says.
   */
  public static ScopeSettings scopeSettings(Provider p) {
    ScopeSettings s = ScopeSettings.of(scopeId(p), p.sharedScope().maxConcurrentRequests(), p.sharedScope().maxDelayedRequests());
    if (p.rate().isEmpty()) {
      return s;
    }
    Rate r = p.rate().get();
    return s.withRate(new RateSettings(r.requests(), r.per(), r.interactiveReserve(), OptionalInt.of(r.burst().orElse(r.requests()))));
  }

  /**
   * The provider's engine settings: its quota-exhaustion rules, its rate-limit dialect (only that
   * one when pinned), the policy's backoff and Retry-After bounds.
   */
  public static EngineSettings engineSettings(Policy policy, Provider p, RandomGenerator random) {
    return new EngineSettings(new Classifier(p.quotaExhausted()), new RetryPlanner(policy.backoff()), reader(p), policy.retryAfter(),
        CircuitSettings.DEFAULT, random);
  }

  private static RateLimitReader reader(Provider p) {
    return switch (p.rateLimitHeaders()) {
      case AUTO -> RateLimitReader.standard();
      case IETF -> RateLimitReader.of(List.of(new IetfRateLimitReader()));
      case LEGACY -> RateLimitReader.of(List.of(new LegacyRateLimitReader()));
      case OPENAI -> RateLimitReader.of(List.of(new OpenAiRateLimitReader()));
      case ANTHROPIC -> RateLimitReader.of(List.of(new AnthropicRateLimitReader()));
      case GITHUB -> RateLimitReader.of(List.of(new GitHubRateLimitReader()));
    };
  }
}
