package dev.sluice.fake;

import java.time.Duration;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * One misbehaviour the fake can inflict on a request. Where it strikes:
 *
 * <ul>
 *   <li>{@link Kind#RESET}: as soon as the request head is parsed, before its body is read: the
 *       connection is reset (TCP RST); nothing is processed.
 *   <li>{@link Kind#LATENCY}: after the body is read, before anything else: the answer, whatever it
 *       is, comes {@code delay} later.
 *   <li>{@link Kind#UNAVAILABLE} / {@link Kind#TIMEOUT}: answered instead of processing ({@code
 *       503}-family with or without {@code Retry-After}, or {@code 408} with {@code Connection:
 *       close}); no quota is consumed and nothing is stored.
 *   <li>{@link Kind#RATE_LIMITED}: answered instead of processing, like a provider over quota:
 *       {@code 429} (or {@code 403}) with the over-quota body and, if given, {@code Retry-After}
 *       (written in the configured format, at least 1 second); no quota is consumed, no
 *       rate-limit headers are written, nothing is stored. Scripts "the first request gets 429
 *       Retry-After: 10" exactly, whatever the buckets hold.
 *   <li>{@link Kind#HOLD}: after the quota and the idempotency key were taken, before the resource
 *       is touched (or before a refusal is written): the request waits until {@link
 *       FakeProvider#releaseHeld()} or {@code delay} passes. Makes "in flight" deterministic.
 *   <li>{@link Kind#DROP_AFTER_COMMIT}: the request is fully processed (record saved, idempotency
 *       result stored), then the connection is closed without a byte of response.
 *   <li>{@link Kind#TRUNCATE}: the status line and headers go out with the full {@code
 *       Content-Length}, then only {@code bytes} of the body, then the connection closes.
 *   <li>{@link Kind#SLOW_BODY}: the body goes out in {@code bytes}-sized chunks, {@code delay}
 *       apart.
 * </ul>
 *
 * Latency, hold and slow-body delays are real time (they concern sockets, not the fake's clock).
 *
 * @param kind the misbehaviour
 * @param delay latency, maximum hold, or pause between body chunks; zero for the other kinds
 * @param status the status of {@link Kind#UNAVAILABLE} (500-599, default 503), of {@link
 *     Kind#RATE_LIMITED} (429 or 403, default 429), or 408 for {@link Kind#TIMEOUT}; 0 for the
 *     other kinds
 * @param retryAfterSeconds the {@code Retry-After} of {@link Kind#UNAVAILABLE} or {@link
 *     Kind#RATE_LIMITED}, if any
 * @param bytes body bytes sent before a {@link Kind#TRUNCATE} (-1: half the body), or the chunk
 *     size of {@link Kind#SLOW_BODY}; 0 for the other kinds
 */
public record Fault(Kind kind, Duration delay, int status, OptionalLong retryAfterSeconds, int bytes) {

  /** The misbehaviours. */
  public enum Kind {
    LATENCY, HOLD, UNAVAILABLE, RATE_LIMITED, TIMEOUT, RESET, DROP_AFTER_COMMIT, TRUNCATE, SLOW_BODY;

    /** The config name: {@code latency}, {@code drop_after_commit}, ... */
    public String configName() {
      return name().toLowerCase(Locale.ROOT);
    }

    /** Looks a kind up by config name ({@code drop-after-commit} is accepted too). */
    public static Optional<Kind> fromConfigName(String name) {
      String n = name == null ? "" : name.trim().toLowerCase(Locale.ROOT).replace('-', '_');
      for (Kind k : values()) {
        if (k.configName().equals(n)) {
          return Optional.of(k);
        }
      }
      return Optional.empty();
    }

    /** The accepted config names, for error messages. */
    public static String configNames() {
      return "latency, hold, unavailable, rate_limited, timeout, reset, drop_after_commit, truncate, slow_body";
    }
  }

  /** The longest a {@link Kind#HOLD} waits when nobody releases it, unless given. */
  public static final Duration DEFAULT_HOLD = Duration.ofSeconds(30);

  public Fault {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(delay, "delay");
    Objects.requireNonNull(retryAfterSeconds, "retryAfterSeconds");
    if (delay.isNegative()) {
      throw new IllegalArgumentException("fault delay must not be negative, got " + delay);
    }
    switch (kind) {
      case LATENCY, HOLD -> require(!delay.isZero(), kind + " needs a positive delay");
      case SLOW_BODY -> {
        require(!delay.isZero(), "slow_body needs a positive delay between chunks");
        require(bytes >= 1, "slow_body needs a chunk size of at least 1 byte, got " + bytes);
      }
      case UNAVAILABLE -> require(status >= 500 && status <= 599, "unavailable status must be 500-599, got " + status);
      case RATE_LIMITED -> require(status == 429 || status == 403, "rate_limited status must be 429 or 403, got " + status);
      case TIMEOUT -> require(status == 408, "timeout answers 408, got " + status);
      case TRUNCATE -> require(bytes >= -1, "truncate bytes must be -1 (half) or more, got " + bytes);
      default -> { }
    }
    if (kind != Kind.UNAVAILABLE && kind != Kind.RATE_LIMITED && retryAfterSeconds.isPresent()) {
      throw new IllegalArgumentException("only unavailable and rate_limited take a retry-after");
    }
    retryAfterSeconds.ifPresent(s -> require(s >= 0, "retry-after must not be negative, got " + s));
  }

  private static void require(boolean ok, String message) {
    if (!ok) {
      throw new IllegalArgumentException(message);
    }
  }

  /** Answer {@code delay} later. */
  public static Fault latency(Duration delay) {
    return new Fault(Kind.LATENCY, delay, 0, OptionalLong.empty(), 0);
  }

  /** Hold the request in flight until released, at most {@link #DEFAULT_HOLD}. */
  public static Fault hold() {
    return hold(DEFAULT_HOLD);
  }

  /** Hold the request in flight until released, at most {@code max}. */
  public static Fault hold(Duration max) {
    return new Fault(Kind.HOLD, max, 0, OptionalLong.empty(), 0);
  }

  /** {@code 503} without {@code Retry-After}. */
  public static Fault unavailable() {
    return new Fault(Kind.UNAVAILABLE, Duration.ZERO, 503, OptionalLong.empty(), 0);
  }

  /** {@code 503} with {@code Retry-After} of the given seconds. */
  public static Fault unavailable(long retryAfterSeconds) {
    return new Fault(Kind.UNAVAILABLE, Duration.ZERO, 503, OptionalLong.of(retryAfterSeconds), 0);
  }

  /** Another 5xx status, with an optional {@code Retry-After}. */
  public static Fault serverError(int status, OptionalLong retryAfterSeconds) {
    return new Fault(Kind.UNAVAILABLE, Duration.ZERO, status, retryAfterSeconds, 0);
  }

  /**
   * {@code 429} with {@code Retry-After} of {@code retryAfter} rounded up to whole seconds (at least
   * 1), answered instead of processing: the seed's "the first request gets 429 Retry-After: 10".
   */
  public static Fault rateLimited(Duration retryAfter) {
    Objects.requireNonNull(retryAfter, "retryAfter");
    if (retryAfter.isNegative()) {
      throw new IllegalArgumentException("retry-after must not be negative, got " + retryAfter);
    }
    long seconds = retryAfter.getSeconds() + (retryAfter.getNano() > 0 ? 1 : 0);
    return rateLimited(429, OptionalLong.of(Math.max(1, seconds)));
  }

  /** A rate-limit refusal with this status (429 or 403) and an optional {@code Retry-After} in seconds. */
  public static Fault rateLimited(int status, OptionalLong retryAfterSeconds) {
    return new Fault(Kind.RATE_LIMITED, Duration.ZERO, status, retryAfterSeconds, 0);
  }

  /** {@code 408 Request Timeout} with {@code Connection: close}. */
  public static Fault timeout() {
    return new Fault(Kind.TIMEOUT, Duration.ZERO, 408, OptionalLong.empty(), 0);
  }

  /** Reset the connection before reading the request. */
  public static Fault reset() {
    return new Fault(Kind.RESET, Duration.ZERO, 0, OptionalLong.empty(), 0);
  }

  /** Process the request, then close the connection without answering. */
  public static Fault dropAfterCommit() {
    return new Fault(Kind.DROP_AFTER_COMMIT, Duration.ZERO, 0, OptionalLong.empty(), 0);
  }

  /** Send headers and half the body, then close. */
  public static Fault truncate() {
    return truncate(-1);
  }

  /** Send headers and {@code bytes} of the body (-1: half), then close. */
  public static Fault truncate(int bytes) {
    return new Fault(Kind.TRUNCATE, Duration.ZERO, 0, OptionalLong.empty(), bytes);
  }

  /** Send the body in {@code chunkBytes} chunks, {@code perChunk} apart. */
  public static Fault slowBody(Duration perChunk, int chunkBytes) {
    return new Fault(Kind.SLOW_BODY, perChunk, 0, OptionalLong.empty(), chunkBytes);
  }
}
