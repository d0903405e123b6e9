package dev.sluice.core.engine;

import dev.sluice.core.classify.AttemptResult;
import dev.sluice.core.http.Headers;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

/**
 * An in-JVM provider stand-in: records every attempt with its virtual send time, answers after a
 * fixed virtual latency with whatever the script says, and tracks how many attempts are in flight.
 */
final class RecordingTransport implements Transport {
  /** One attempt as the "provider" saw it. */
  record Call(Instant at, AttemptRequest request, int inFlightAfterSend) {}

  /** What to answer: a result per call. */
  interface Script extends Function<AttemptRequest, AttemptResult> {}

  private final VirtualScheduler clock;
  private final Duration latency;
  private Script script;
  private final List<Call> calls = new ArrayList<>();
  private final List<Instant> completions = new ArrayList<>();
  private final List<CompletableFuture<AttemptResult>> open = new ArrayList<>();
  private int inFlight;
  private int maxInFlight;

  RecordingTransport(VirtualScheduler clock, Duration latency, Script script) {
    this.clock = clock;
    this.latency = latency;
    this.script = script;
  }

  static AttemptResult ok() {
    return new AttemptResult.Response(200, Headers.empty(), "{\"ok\":true}");
  }

  static AttemptResult status(int status, String... headers) {
    return new AttemptResult.Response(status, Headers.of(headers));
  }

  void script(Script s) {
    synchronized (this) {
      this.script = s;
    }
  }

  @Override
  public CompletableFuture<AttemptResult> send(AttemptRequest request) {
    AttemptResult result;
    CompletableFuture<AttemptResult> f = new CompletableFuture<>();
    synchronized (this) {
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      calls.add(new Call(clock.now(), request, inFlight));
      result = script.apply(request);
      open.add(f);
    }
    java.util.concurrent.atomic.AtomicBoolean answered = new java.util.concurrent.atomic.AtomicBoolean();
    Runnable leave = () -> {
      if (answered.compareAndSet(false, true)) {
        synchronized (this) {
          inFlight--;
          completions.add(clock.now());
          open.remove(f);
        }
      }
    };
    // The response leaves the provider before the engine hears of it; a cancel frees it too.
    f.whenComplete((r, e) -> leave.run());
    if (latency.isZero()) {
      leave.run();
      f.complete(result);
    } else {
      clock.schedule(clock.now().plus(latency), () -> {
        leave.run();
        f.complete(result);
      });
    }
    return f;
  }

  synchronized List<Call> calls() {
    return List.copyOf(calls);
  }

  synchronized List<Instant> sendTimes() {
    return calls.stream().map(Call::at).toList();
  }

  synchronized int maxInFlight() {
    return maxInFlight;
  }

  synchronized int inFlight() {
    return inFlight;
  }
}
