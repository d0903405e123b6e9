package dev.sluice.core.internal;

import dev.sluice.core.classify.AttemptResult;
import dev.sluice.core.engine.AttemptRequest;
import dev.sluice.core.engine.Transport;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * Records {@code action_sent} just before an attempt reaches the real transport and {@code
 * action_result} when it answers, before the engine hears the result (so the engine's reaction is
 * recorded after it). Sits inside {@link JournaledTransport}: an attempt whose start could not be
 * journaled is never sent, and so never recorded as sent.
 */
public final class AuditingTransport implements Transport {
  private final Transport delegate;
  private final AuditTrail trail;
  private final Supplier<Instant> clock;

  public AuditingTransport(Transport delegate, AuditTrail trail, Supplier<Instant> clock) {
    this.delegate = delegate;
    this.trail = trail;
    this.clock = clock;
  }

  @Override
  public CompletableFuture<AttemptResult> send(AttemptRequest attempt) {
    trail.sent(attempt, clock.get());
    CompletableFuture<AttemptResult> sent = delegate.send(attempt);
    CompletableFuture<AttemptResult> out = new CompletableFuture<>();
    out.whenComplete((r, e) -> {
      if (out.isCancelled()) {
        sent.cancel(true); // the engine aborts an attempt by cancelling: pass it on
      }
    });
    sent.whenComplete((r, e) -> {
      if (r != null) {
        trail.result(attempt, r, clock.get());
        out.complete(r);
      } else {
        out.completeExceptionally(e);
      }
    });
    return out;
  }
}
