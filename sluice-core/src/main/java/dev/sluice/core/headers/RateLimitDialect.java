package dev.sluice.core.headers;

import java.util.Locale;

/**
 * The families of rate-limit header fields Sluice understands. A provider may pin one in
 * {@code sluice.yaml} ({@code rate_limit_headers: openai}); the default, {@link #AUTO}, reads every
 * dialect whose fields are present.
 */
public enum RateLimitDialect {
  /** Detect from the fields present (the default). */
  AUTO,
  /** IETF {@code RateLimit-Policy} / {@code RateLimit} structured fields (draft-ietf-httpapi-ratelimit-headers-11). */
  IETF,
  /** The older {@code RateLimit-Limit} / {@code RateLimit-Remaining} / {@code RateLimit-Reset} fields. */
  LEGACY,
  /** OpenAI {@code x-ratelimit-{limit,remaining,reset}-{requests,tokens}} with duration resets. */
  OPENAI,
  /** Anthropic {@code anthropic-ratelimit-*} with RFC 3339 resets. */
  ANTHROPIC,
  /** GitHub {@code x-ratelimit-{limit,remaining,used,reset,resource}} with epoch-second resets. */
  GITHUB;

  /** The name used in configuration and JSON ({@code openai}, {@code ietf}, ...). */
  public String configName() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** Parses a configuration name, case-insensitively; throws with the accepted names otherwise. */
  public static RateLimitDialect fromConfigName(String name) {
    for (RateLimitDialect d : values()) {
      if (d.configName().equalsIgnoreCase(name)) {
        return d;
      }
    }
    throw new IllegalArgumentException("unknown rate-limit dialect '" + name + "'; expected one of auto, ietf, legacy, openai, anthropic, github");
  }
}
