package dev.sluice.fake.internal;

import dev.sluice.fake.Dialect;
import java.time.Instant;
import java.util.OptionalLong;
import java.util.function.BiConsumer;

/**
 * Writes one dialect's rate-limit header fields from a {@link QuotaSnapshot}. Independent of the
 * engine's readers on purpose (the fake is a test oracle).
 */
public interface RateLimitHeaderWriter {

  /**
   * @param snapshot the state after the decision
   * @param now the fake's clock at the decision
   * @param nanosUntilRetry on a refusal, the time until the request would be allowed
   * @param out receives (name, value) pairs
   */
  void write(QuotaSnapshot snapshot, Instant now, OptionalLong nanosUntilRetry, BiConsumer<String, String> out);

  /** The writer of a dialect ({@link Dialect#NONE} writes nothing). */
  static RateLimitHeaderWriter of(Dialect dialect) {
    return switch (dialect) {
      case IETF -> new IetfHeaderWriter();
      case LEGACY -> new LegacyHeaderWriter();
      case OPENAI -> new OpenAiHeaderWriter();
      case ANTHROPIC -> new AnthropicHeaderWriter();
      case GITHUB -> new GithubHeaderWriter();
      case NONE -> (snapshot, now, retry, out) -> { };
    };
  }
}
