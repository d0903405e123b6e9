package dev.sluice.fake;

import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * When a {@link Fault} strikes: the requests it matches and which of them.
 *
 * <p>A rule counts the requests that match it, in arrival order, from 1 (counted when the request
 * arrives, whatever becomes of it). It strikes the {@code nth} matching request and the {@code
 * times - 1} matching requests after it. Defaults: every request matches, {@code nth = 1}, {@code
 * times = 1} (only the first matching request). {@link #always()} makes it strike every matching
 * request from the {@code nth} on. The inspection API is never faulted. Counters restart on {@link
 * FakeProvider#reset()}.
 *
 * <p>{@code path} is an exact path ({@code /records}), a template whose {@code {name}} segments
 * match any one segment ({@code /records/{id}}), or a prefix ending in {@code *} ({@code /v1/*}).
 *
 * @param fault what to inflict
 * @param method the HTTP method to match (case-insensitive), or any
 * @param path the path pattern to match, or any
 * @param family the route family to match, or any
 * @param scope the scope to match (see {@link ScopeBy}), or any
 * @param nth the first matching request to strike, from 1
 * @param times how many matching requests to strike, at least 1; {@link Long#MAX_VALUE} for all
 */
public record FaultRule(
    Fault fault,
    Optional<String> method,
    Optional<String> path,
    Optional<String> family,
    Optional<String> scope,
    long nth,
    long times) {

  public FaultRule {
    Objects.requireNonNull(fault, "fault");
    Objects.requireNonNull(method, "method");
    Objects.requireNonNull(path, "path");
    Objects.requireNonNull(family, "family");
    Objects.requireNonNull(scope, "scope");
    method = method.map(m -> m.trim().toUpperCase(Locale.ROOT));
    if (nth < 1) {
      throw new IllegalArgumentException("nth counts from 1, got " + nth);
    }
    if (times < 1) {
      throw new IllegalArgumentException("times must be at least 1, got " + times);
    }
    path.ifPresent(p -> {
      if (!p.startsWith("/")) {
        throw new IllegalArgumentException("a path pattern starts with '/', got '" + p + "'");
      }
    });
  }

  /** The fault on the first request that arrives, whatever it is. */
  public static FaultRule of(Fault fault) {
    return new FaultRule(fault, Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(), 1, 1);
  }

  /** Only requests with this HTTP method (case-insensitive). */
  public FaultRule method(String m) {
    return new FaultRule(fault, Optional.of(m), path, family, scope, nth, times);
  }

  /** Only requests whose path matches this pattern (exact, {@code {name}} segments, or a {@code *} prefix). */
  public FaultRule path(String p) {
    return new FaultRule(fault, method, Optional.of(p), family, scope, nth, times);
  }

  /** Only requests routed to this family. */
  public FaultRule family(String f) {
    return new FaultRule(fault, method, path, Optional.of(f), scope, nth, times);
  }

  /** Only requests of this scope (see {@link ScopeBy#credentialScope(String)}). */
  public FaultRule scope(String s) {
    return new FaultRule(fault, method, path, family, Optional.of(s), nth, times);
  }

  /** Strike from the {@code n}th matching request (1-based). */
  public FaultRule nth(long n) {
    return new FaultRule(fault, method, path, family, scope, n, times);
  }

  /** Strike {@code n} consecutive matching requests. */
  public FaultRule times(long n) {
    return new FaultRule(fault, method, path, family, scope, nth, n);
  }

  /** Strike every matching request from the {@code nth} on. */
  public FaultRule always() {
    return times(Long.MAX_VALUE);
  }

  /** Whether this rule strikes the {@code count}th matching request. */
  public boolean strikes(long count) {
    return count >= nth && count - nth < times;
  }

  /** Whether a request matches this rule (independent of the count). */
  public boolean matches(String reqMethod, String reqPath, String reqFamily, String reqScope) {
    return method.map(m -> m.equalsIgnoreCase(reqMethod)).orElse(true)
        && family.map(f -> f.equals(reqFamily)).orElse(true)
        && scope.map(s -> s.equals(reqScope)).orElse(true)
        && path.map(p -> pathMatches(p, reqPath)).orElse(true);
  }

  static boolean pathMatches(String pattern, String path) {
    if (pattern.endsWith("*")) {
      return path.startsWith(pattern.substring(0, pattern.length() - 1));
    }
    String[] want = pattern.split("/", -1);
    String[] got = path.split("/", -1);
    if (want.length != got.length) {
      return false;
    }
    for (int i = 0; i < want.length; i++) {
      boolean template = want[i].startsWith("{") && want[i].endsWith("}") && !got[i].isEmpty();
      if (!template && !want[i].equals(got[i])) {
        return false;
      }
    }
    return true;
  }
}
