package dev.sluice.core.internal;

import dev.sluice.core.classify.AttemptResult;
import dev.sluice.core.classify.TransportFailure;
import dev.sluice.core.engine.AttemptRequest;
import dev.sluice.core.engine.Transport;
import dev.sluice.core.http.Headers;
import dev.sluice.core.journal.ActionId;
import dev.sluice.core.journal.AttemptEnd;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Journals each attempt of a journaled action around the real transport: the attempt's start (and
 * the action's move to in_flight) is committed — fsynced for a write — <em>before</em> the request
 * is handed to the transport, on the journal writer's thread, never under the engine's lock; its
 * end is queued before the engine hears the result. When the start cannot be committed nothing is
 * sent, and the engine sees {@code connect_failed} (nothing left). Attempts of actions that are not
 * journaled pass straight through.
 */
public final class JournaledTransport implements Transport {
  private static final Logger LOG = LoggerFactory.getLogger(JournaledTransport.class);

  private final Transport delegate;
  private final JournalWriter writer;

  public JournaledTransport(Transport delegate, JournalWriter writer) {
    this.delegate = delegate;
    this.writer = writer;
  }

  @Override
  public CompletableFuture<AttemptResult> send(AttemptRequest attempt) {
    if (attempt.journalId().isEmpty()) {
      return delegate.send(attempt);
    }
    ActionId id = attempt.journalId().get();
    CompletableFuture<AttemptResult> out = new CompletableFuture<>();
    boolean queued = writer.post(() -> {
      if (out.isDone()) {
        return; // cancelled before it left: nothing recorded, nothing sent
      }
      int number;
      try {
        number = writer.startAttempt(id, attempt.lookup(), attempt.idempotencyKey());
      } catch (RuntimeException e) {
        LOG.warn("attempt of action {} not sent: its start could not be journaled ({})", id, e.getMessage());
        out.complete(new AttemptResult.Failure(TransportFailure.CONNECT_FAILED));
        return;
      }
      CompletableFuture<AttemptResult> f;
      try {
        f = delegate.send(attempt);
      } catch (RuntimeException e) {
        f = CompletableFuture.completedFuture(new AttemptResult.Failure(TransportFailure.CONNECT_FAILED));
      }
      CompletableFuture<AttemptResult> sent = f;
      out.whenComplete((r, e) -> {
        if (out.isCancelled()) {
          sent.cancel(true);
        }
      });
      sent.whenComplete((r, e) -> {
        AttemptEnd end = r instanceof AttemptResult.Response resp ? AttemptEnd.response(resp.status())
            : r instanceof AttemptResult.Failure fail ? AttemptEnd.failed(fail.kind()) : AttemptEnd.failed(TransportFailure.RESET_AFTER_SEND);
        Headers headers = r instanceof AttemptResult.Response resp ? resp.headers() : Headers.empty();
        writer.post(() -> writer.finishAttempt(id, number, end, headers));
        if (r != null) {
          out.complete(r);
        } else {
          out.completeExceptionally(e);
        }
      });
    });
    if (!queued) {
      out.complete(new AttemptResult.Failure(TransportFailure.CONNECT_FAILED)); // stopping: nothing is sent any more
    }
    return out;
  }
}
