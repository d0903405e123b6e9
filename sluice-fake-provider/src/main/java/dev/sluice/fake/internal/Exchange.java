package dev.sluice.fake.internal;

import dev.sluice.fake.Attempt;
import dev.sluice.fake.ConcurrencyLimit;
import dev.sluice.fake.DailyQuota;
import dev.sluice.fake.Fault;
import dev.sluice.fake.RetryAfterFormat;
import dev.sluice.fake.RouteFamily;
import dev.sluice.fake.ScopeBy;
import java.io.IOException;
import java.net.StandardSocketOptions;
import java.net.URLDecoder;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.ExecutionException;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.io.SocketChannelEndPoint;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Blocker;
import org.eclipse.jetty.util.Callback;

/**
 * One provider request, from arrival to delivery. The order of the steps is the contract documented
 * on {@link Fault}: log the arrival (and decide which faults strike, in log order), reset?, read the
 * body, latency, 503/429/408, route, credential, concurrency slot, daily quota and buckets, idempotency
 * key, hold, the resource, then delivery (which a fault may drop, truncate or slow down).
 */
final class Exchange {

  /** Larger bodies are refused with 413. */
  static final int MAX_BODY_BYTES = 1 << 20;

  private final ProviderCore core;
  private final Request request;
  private final Response response;
  private final Callback callback;
  private final String path;
  private final String method;
  private Optional<Routes.Match> route = Optional.empty();
  private String scope = ScopeBy.ANONYMOUS;
  private Optional<String> key = Optional.empty();
  private List<Fault> faults = List.of();
  private AttemptLog.Entry entry;
  private boolean slotTaken;
  private boolean held;

  Exchange(ProviderCore core, Request request, Response response, Callback callback, String path) {
    this.core = core;
    this.request = request;
    this.response = response;
    this.callback = callback;
    this.path = path;
    this.method = request.getMethod().toUpperCase(Locale.ROOT);
  }

  void run() {
    String query = Optional.ofNullable(request.getHttpURI().getQuery()).orElse("");
    route = core.routes.match(path);
    String family = route.map(m -> m.family().name()).orElse("");
    scope = scopeOf(family);
    key = header("Idempotency-Key");
    Optional<String> task = header("Sluice-Task");
    var arrival = core.log.append(core.clock.instant(), method, path, query, family, scope, key, task,
        seq -> core.faults.strike(method, path, family, scope));
    entry = arrival.entry();
    faults = arrival.decided();
    try {
      if (first(Fault.Kind.RESET).isPresent()) {
        entry.fault(Fault.Kind.RESET.configName());
        entry.result(Attempt.Result.RESET);
        closeConnection(true);
        callback.failed(new FaultAbort("connection reset"));
        return;
      }
      byte[] body = readBody();
      if (body == null) {
        deliver(Reply.error(413, "request_too_large", "the body exceeds " + MAX_BODY_BYTES + " bytes"));
        return;
      }
      for (Fault f : faults) {
        if (f.kind() == Fault.Kind.LATENCY) {
          entry.fault(f.kind().configName());
          Thread.sleep(f.delay());
        }
      }
      deliver(produce(body, query));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      entry.result(Attempt.Result.ABORTED);
      callback.failed(e);
    } catch (Throwable t) {
      entry.result(Attempt.Result.ABORTED);
      callback.failed(t);
    } finally {
      releaseSlot();
    }
  }

  private Reply produce(byte[] body, String query) throws InterruptedException {
    Optional<Fault> unavailable = first(Fault.Kind.UNAVAILABLE);
    if (unavailable.isPresent()) {
      Fault f = unavailable.get();
      entry.fault(f.kind().configName());
      Reply r = Reply.error(f.status(), "service_unavailable", "the service is temporarily unavailable");
      if (f.retryAfterSeconds().isPresent() && core.config.retryAfterFormat() != RetryAfterFormat.NONE) {
        r = r.withHeader("Retry-After", retryAfterValue(f.retryAfterSeconds().getAsLong() * 1_000_000_000L, core.clock.instant()));
      }
      return r;
    }
    Optional<Fault> limited = first(Fault.Kind.RATE_LIMITED);
    if (limited.isPresent()) {
      Fault f = limited.get();
      entry.fault(f.kind().configName());
      Reply r = Reply.json(f.status(), core.config.overQuota().body());
      return f.retryAfterSeconds().isPresent() ? withRetryAfter(r, f.retryAfterSeconds().getAsLong() * 1_000_000_000L, core.clock.instant()) : r;
    }
    if (first(Fault.Kind.TIMEOUT).isPresent()) {
      entry.fault(Fault.Kind.TIMEOUT.configName());
      return Reply.error(408, "request_timeout", "the server timed out waiting for the request").withHeader("Connection", "close");
    }
    if (route.isEmpty()) {
      return Reply.error(404, "not_found", "no route for " + path);
    }
    RouteFamily family = route.get().family();
    if (!core.config.acceptedCredentials().isEmpty()
        && !header("Authorization").map(core.config.acceptedCredentials()::contains).orElse(false)) {
      return Reply.error(401, "invalid_api_key", "missing or unknown credential").withHeader("WWW-Authenticate", "Bearer");
    }
    if (!core.quotas.tryEnter(scope)) {
      ConcurrencyLimit c = core.config.concurrency().orElseThrow();
      return withRetryAfter(Reply.json(c.status(), c.body()), c.retryAfterSeconds() * 1_000_000_000L, core.clock.instant());
    }
    slotTaken = true;
    Instant now = core.clock.instant();
    long tokenCost = Math.max(1, Math.ceilDiv(body.length, 4));
    QuotaDecision decision = core.quotas.take(scope, family, tokenCost, now);
    QuotaSnapshot snapshot;
    switch (decision) {
      case QuotaDecision.Exhausted ex -> {
        DailyQuota d = core.config.dailyQuota().orElseThrow();
        long nanos = java.time.Duration.between(now, ex.resetAt()).toNanos();
        return withRetryAfter(Reply.json(429, d.body()), nanos, now);
      }
      case QuotaDecision.Denied denied -> {
        Reply r = Reply.json(core.config.overQuota().status(), core.config.overQuota().body());
        r = withRetryAfter(r, denied.nanosUntilRetry(), now);
        return withRateLimitHeaders(r, denied.snapshot(), now, OptionalLong.of(denied.nanosUntilRetry()));
      }
      case QuotaDecision.Granted g -> snapshot = g.snapshot();
    }
    ResourceCall call = new ResourceCall(method, path, family, route.get().itemId(), parseQuery(query), body, scope, key, now);
    boolean write = !method.equals("GET") && !method.equals("HEAD");
    Reply reply;
    if (family.idempotency() && write && key.isPresent()) {
      IdempotencyStore.Claim claim = core.idempotency.claim(scope, key.get(), IdempotencyStore.Fingerprint.of(method, path, body));
      reply = switch (claim) {
        case IdempotencyStore.Claim.Mismatch m -> Reply.error(422, "idempotency_key_reused",
            "this Idempotency-Key was used with another request; use a new key for a new request");
        case IdempotencyStore.Claim.InFlight i -> Reply.error(409, "idempotency_key_in_use",
            "a request with this Idempotency-Key is still being processed; retry later");
        case IdempotencyStore.Claim.Replay rp -> {
          entry.replayed(true);
          yield rp.reply().withHeader("Idempotent-Replayed", "true");
        }
        case IdempotencyStore.Claim.Fresh f -> processOnce(call);
      };
    } else {
      holdIfStruck();
      reply = core.store.handle(withNow(call));
    }
    return withRateLimitHeaders(reply, snapshot, now, OptionalLong.empty());
  }

  /** Processes a request whose key was just claimed, storing the reply on success only. */
  private Reply processOnce(ResourceCall call) throws InterruptedException {
    boolean stored = false;
    try {
      holdIfStruck();
      Reply r = core.store.handle(withNow(call));
      if (r.status() >= 200 && r.status() < 300) {
        core.idempotency.complete(scope, key.orElseThrow(), r);
        stored = true;
      }
      return r;
    } finally {
      if (!stored) {
        core.idempotency.abandon(scope, key.orElseThrow());
      }
    }
  }

  private ResourceCall withNow(ResourceCall c) {
    // A held request is processed at the time it is released, as a real provider would.
    Instant now = core.clock.instant();
    return new ResourceCall(c.method(), c.path(), c.family(), c.itemId(), c.query(), c.body(), c.scope(), c.idempotencyKey(), now);
  }

  private void holdIfStruck() throws InterruptedException {
    if (held) {
      return;
    }
    held = true;
    Optional<Fault> hold = first(Fault.Kind.HOLD);
    if (hold.isPresent()) {
      entry.fault(Fault.Kind.HOLD.configName());
      core.gate.hold(hold.get().delay());
    }
  }

  private Reply withRateLimitHeaders(Reply r, QuotaSnapshot s, Instant now, OptionalLong retry) {
    Reply[] out = {r};
    core.headerWriter.write(s, now, retry, (n, v) -> out[0] = out[0].withHeader(n, v));
    return out[0];
  }

  private Reply withRetryAfter(Reply r, long nanos, Instant now) {
    if (core.config.retryAfterFormat() == RetryAfterFormat.NONE) {
      return r;
    }
    return r.withHeader("Retry-After", retryAfterValue(nanos, now));
  }

  private String retryAfterValue(long nanos, Instant now) {
    long seconds = Math.max(1, TimeFormats.ceilSeconds(nanos));
    if (core.config.retryAfterFormat() == RetryAfterFormat.HTTP_DATE) {
      Instant at = now.plusNanos(Math.max(nanos, 1));
      // Round the date up: a client waiting until it is never early.
      Instant up = at.getNano() == 0 ? at : at.truncatedTo(ChronoUnit.SECONDS).plusSeconds(1);
      return TimeFormats.httpDate(up);
    }
    return Long.toString(seconds);
  }

  // ---- delivery

  private void deliver(Reply r) throws IOException, InterruptedException {
    holdIfStruck();
    entry.status(r.status());
    r.operationId().ifPresent(entry::operationId);
    response.setStatus(r.status());
    for (Map.Entry<String, String> h : r.headers()) {
      response.getHeaders().add(h.getKey(), h.getValue());
    }
    byte[] body = r.body();
    response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/json");
    response.getHeaders().put(HttpHeader.DATE, TimeFormats.httpDate(core.clock.instant()));
    response.getHeaders().put(HttpHeader.CONTENT_LENGTH, body.length);

    if (first(Fault.Kind.DROP_AFTER_COMMIT).isPresent()) {
      entry.fault(Fault.Kind.DROP_AFTER_COMMIT.configName());
      entry.result(Attempt.Result.DROPPED);
      releaseSlot();
      closeConnection(false);
      callback.failed(new FaultAbort("dropped after commit"));
      return;
    }
    Optional<Fault> truncate = first(Fault.Kind.TRUNCATE);
    if (truncate.isPresent() && body.length > 0) {
      entry.fault(Fault.Kind.TRUNCATE.configName());
      entry.result(Attempt.Result.TRUNCATED);
      int n = truncate.get().bytes() < 0 ? body.length / 2 : Math.min(truncate.get().bytes(), body.length - 1);
      write(false, ByteBuffer.wrap(body, 0, n));
      releaseSlot();
      closeConnection(false);
      callback.failed(new FaultAbort("truncated response"));
      return;
    }
    Optional<Fault> slow = first(Fault.Kind.SLOW_BODY);
    int from = 0;
    if (slow.isPresent()) {
      entry.fault(Fault.Kind.SLOW_BODY.configName());
      int chunk = slow.get().bytes();
      while (body.length - from > chunk) {
        write(false, ByteBuffer.wrap(body, from, chunk));
        from += chunk;
        Thread.sleep(slow.get().delay());
      }
    }
    // The ground truth must be complete before the client can see the end of the answer.
    entry.result(Attempt.Result.ANSWERED);
    releaseSlot();
    try {
      write(true, ByteBuffer.wrap(body, from, body.length - from));
    } catch (IOException e) {
      entry.result(Attempt.Result.ABORTED);
      throw e;
    }
    callback.succeeded();
  }

  private void write(boolean last, ByteBuffer buf) throws IOException {
    try (Blocker.Callback b = Blocker.callback()) {
      response.write(last, buf, b);
      b.block();
    }
  }

  private byte[] readBody() throws IOException {
    long declared = request.getLength();
    if (declared > MAX_BODY_BYTES) {
      return null;
    }
    try {
      return Content.Source.asByteArrayAsync(request, MAX_BODY_BYTES).get();
    } catch (ExecutionException e) {
      if (e.getCause() instanceof IOException io) {
        throw io;
      }
      return null;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while reading the body", e);
    }
  }

  private void closeConnection(boolean reset) {
    EndPoint ep = request.getConnectionMetaData().getConnection().getEndPoint();
    if (reset && ep instanceof SocketChannelEndPoint sc) {
      try {
        // SO_LINGER 0 turns the close into a TCP RST: the client sees "connection reset".
        ((SocketChannel) sc.getChannel()).setOption(StandardSocketOptions.SO_LINGER, 0);
      } catch (IOException | RuntimeException ignored) {
        // The close below still ends the connection, only less abruptly.
      }
    }
    ep.close();
  }

  private void releaseSlot() {
    if (slotTaken) {
      slotTaken = false;
      core.quotas.leave(scope);
    }
  }

  // ---- helpers

  private Optional<Fault> first(Fault.Kind kind) {
    return faults.stream().filter(f -> f.kind() == kind).findFirst();
  }

  private Optional<String> header(String name) {
    String v = request.getHeaders().get(name);
    return v == null || v.isBlank() ? Optional.empty() : Optional.of(v.trim());
  }

  private String scopeOf(String family) {
    return switch (core.config.scopeBy().kind()) {
      case AUTHORIZATION -> ScopeBy.credentialScope(request.getHeaders().get("Authorization"));
      case HEADER -> header(core.config.scopeBy().header().orElseThrow()).orElse(ScopeBy.ANONYMOUS);
      case FAMILY -> family.isEmpty() ? "unrouted" : family;
    };
  }

  static Map<String, String> parseQuery(String query) {
    Map<String, String> out = new LinkedHashMap<>();
    if (query == null || query.isEmpty()) {
      return out;
    }
    for (String pair : query.split("&")) {
      if (pair.isEmpty()) {
        continue;
      }
      int eq = pair.indexOf('=');
      String k = eq < 0 ? pair : pair.substring(0, eq);
      String v = eq < 0 ? "" : pair.substring(eq + 1);
      try {
        out.putIfAbsent(URLDecoder.decode(k, StandardCharsets.UTF_8), URLDecoder.decode(v, StandardCharsets.UTF_8));
      } catch (IllegalArgumentException ignored) {
        // A malformed escape: the parameter is ignored, as a lenient provider would.
      }
    }
    return out;
  }
}
