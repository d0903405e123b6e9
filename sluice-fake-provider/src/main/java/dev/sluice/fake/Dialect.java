package dev.sluice.fake;

import java.util.Locale;
import java.util.Optional;

/**
 * The rate-limit header dialect the fake writes on responses whose quota it evaluated. The default
 * is {@link #IETF}.
 */
public enum Dialect {
  /** {@code RateLimit-Policy: "default";q=10;w=1} and {@code RateLimit: "default";r=9;t=1}. */
  IETF,
  /** {@code RateLimit-Limit}, {@code RateLimit-Remaining}, {@code RateLimit-Reset} (delta seconds). */
  LEGACY,
  /**
   * OpenAI: {@code x-ratelimit-{limit,remaining,reset}-requests} (and {@code -tokens} when a token
   * quota is configured), resets as Go-style durations such as {@code 6m0s}, plus {@code
   * retry-after-ms} on a 429.
   */
  OPENAI,
  /** Anthropic: {@code anthropic-ratelimit-requests-{limit,remaining,reset}} with RFC 3339 resets. */
  ANTHROPIC,
  /** GitHub: {@code x-ratelimit-{limit,remaining,used,reset,resource}}, reset in epoch seconds. */
  GITHUB,
  /** No rate-limit headers at all (a provider that tells you nothing). */
  NONE;

  /** The lower-case name used in the config file, the CLI and JSON. */
  public String configName() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** Looks a dialect up by its config name, case-insensitively. */
  public static Optional<Dialect> fromConfigName(String name) {
    for (Dialect d : values()) {
      if (d.configName().equalsIgnoreCase(name == null ? "" : name.trim())) {
        return Optional.of(d);
      }
    }
    return Optional.empty();
  }

  /** The accepted config names, for error messages and help. */
  public static String configNames() {
    return "ietf, legacy, openai, anthropic, github, none";
  }
}
