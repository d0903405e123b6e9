package dev.sluice.core.transport;

import dev.sluice.core.classify.AttemptResult;
import dev.sluice.core.policy.internal.Syntax;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * How the HTTP transport behaves on the wire. Defaults ({@link #defaults()}): connect timeout 5 s,
 * read timeout 30 s, response bodies up to {@link AttemptResult.Response#BODY_PREFIX_LIMIT} (64
 * KiB), no task header, {@code User-Agent: sluice} unless the agent sends its own.
 *
 * @param connectTimeout the longest a TCP (and TLS) connect may take; a connect that takes longer
 *     is {@code connect_timeout}: nothing was sent
 * @param readTimeout the longest the transport waits without receiving a byte once the request is
 *     on its way; after the request was committed this is {@code read_timeout}: the outcome is
 *     unknown
 * @param maxResponseBytes the largest response body accepted, 0 to {@link
 *     AttemptResult.Response#BODY_PREFIX_LIMIT}; a larger body is not read: the exchange is aborted
 *     and reported as a response with its status and {@code bodyTooLarge} set (the provider's
 *     answer arrived, so its status stands; only the body is refused)
 * @param taskHeader a request header that carries the task id to the provider, e.g. {@code
 *     Sluice-Task} for the fake provider's attempt log; absent by default: a real provider learns
 *     nothing about Sluice's tasks
 * @param userAgent the {@code User-Agent} sent when the agent sends none
 * @param hostResolver resolves provider host names at connect time; default {@link
 *     HostResolver#SYSTEM}. Link-local and metadata addresses it returns are refused anyway
 */
public record TransportSettings(
    Duration connectTimeout, Duration readTimeout, int maxResponseBytes, Optional<String> taskHeader, String userAgent,
    HostResolver hostResolver) {

  public TransportSettings {
    Objects.requireNonNull(connectTimeout, "connectTimeout");
    Objects.requireNonNull(readTimeout, "readTimeout");
    Objects.requireNonNull(taskHeader, "taskHeader");
    Objects.requireNonNull(userAgent, "userAgent");
    Objects.requireNonNull(hostResolver, "hostResolver");
    if (connectTimeout.isNegative() || connectTimeout.isZero()) {
      throw new IllegalArgumentException("the connect timeout must be positive, got " + connectTimeout);
    }
    if (readTimeout.isNegative() || readTimeout.isZero()) {
      throw new IllegalArgumentException("the read timeout must be positive, got " + readTimeout);
    }
    if (maxResponseBytes < 0 || maxResponseBytes > AttemptResult.Response.BODY_PREFIX_LIMIT) {
      throw new IllegalArgumentException("the response body cap must be 0.." + AttemptResult.Response.BODY_PREFIX_LIMIT
          + " bytes (what an attempt result keeps), got " + maxResponseBytes);
    }
    taskHeader.ifPresent(h -> {
      if (!Syntax.isToken(h) || Syntax.isReservedHeader(h)) {
        throw new IllegalArgumentException("the task header must be a header field name, got '" + h + "'");
      }
    });
    if (userAgent.isBlank() || Syntax.hasControl(userAgent)) {
      throw new IllegalArgumentException("the User-Agent must be non-blank text without control characters");
    }
  }

  /** The defaults listed above. */
  public static TransportSettings defaults() {
    return new TransportSettings(Duration.ofSeconds(5), Duration.ofSeconds(30), AttemptResult.Response.BODY_PREFIX_LIMIT, Optional.empty(), "sluice",
        HostResolver.SYSTEM);
  }

  public TransportSettings withConnectTimeout(Duration d) {
    return new TransportSettings(d, readTimeout, maxResponseBytes, taskHeader, userAgent, hostResolver);
  }

  public TransportSettings withReadTimeout(Duration d) {
    return new TransportSettings(connectTimeout, d, maxResponseBytes, taskHeader, userAgent, hostResolver);
  }

  public TransportSettings withMaxResponseBytes(int n) {
    return new TransportSettings(connectTimeout, readTimeout, n, taskHeader, userAgent, hostResolver);
  }

  /** Sends the task id in this header (the fake provider logs {@code Sluice-Task}). */
  public TransportSettings withTaskHeader(String name) {
    return new TransportSettings(connectTimeout, readTimeout, maxResponseBytes, Optional.of(name), userAgent, hostResolver);
  }

  /** Resolves provider host names with {@code r} (tests: a name that resolves where the test says). */
  public TransportSettings withHostResolver(HostResolver r) {
    return new TransportSettings(connectTimeout, readTimeout, maxResponseBytes, taskHeader, userAgent, r);
  }
}
