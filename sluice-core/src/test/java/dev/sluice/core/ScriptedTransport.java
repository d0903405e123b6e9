package dev.sluice.core;

import dev.sluice.core.classify.AttemptResult;
import dev.sluice.core.engine.AttemptRequest;
import dev.sluice.core.engine.Transport;
import dev.sluice.core.engine.VirtualScheduler;
import dev.sluice.core.http.Headers;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

/**
 * An in-JVM transport for facade tests: records each attempt with its virtual send time and
 * answers what the script says, at once (or never, for {@link #HANG}).
 */
final class ScriptedTransport implements Transport {
  /** Never answers: the attempt stays in flight. */
  static final AttemptResult HANG = new AttemptResult.Response(599, Headers.of("X-Hang", "1"));

  record Sent(Instant at, AttemptRequest request) {}

  private final VirtualScheduler clock;
  private final Function<AttemptRequest, AttemptResult> script;
  private final List<Sent> sent = new ArrayList<>();
  private final List<CompletableFuture<AttemptResult>> hanging = new ArrayList<>();

  ScriptedTransport(VirtualScheduler clock, Function<AttemptRequest, AttemptResult> script) {
    this.clock = clock;
    this.script = script;
  }

  static AttemptResult ok() {
    return new AttemptResult.Response(200, Headers.empty(), "{}");
  }

  static AttemptResult status(int status, String... headers) {
    return new AttemptResult.Response(status, Headers.of(headers));
  }

  @Override
  public synchronized CompletableFuture<AttemptResult> send(AttemptRequest request) {
    sent.add(new Sent(clock.now(), request));
    AttemptResult r = script.apply(request);
    if (r == HANG) {
      CompletableFuture<AttemptResult> f = new CompletableFuture<>();
      hanging.add(f);
      return f;
    }
    return CompletableFuture.completedFuture(r);
  }

  /** Answers every attempt still hanging with {@code r}, oldest first; returns how many. */
  int answerHanging(AttemptResult r) {
    List<CompletableFuture<AttemptResult>> now;
    synchronized (this) {
      now = List.copyOf(hanging);
      hanging.clear();
    }
    now.forEach(f -> f.complete(r)); // outside the lock: completing runs the engine, which may send again
    return now.size();
  }

  synchronized List<Sent> sent() {
    return List.copyOf(sent);
  }

  synchronized List<AttemptRequest> requests() {
    return sent.stream().map(Sent::request).toList();
  }
}
