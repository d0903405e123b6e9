package dev.sluice.store.sqlite;

import static dev.sluice.store.sqlite.Fixtures.at;
import static dev.sluice.store.sqlite.Fixtures.invoiceRead;
import static dev.sluice.store.sqlite.Fixtures.transfer;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.core.classify.TransportFailure;
import dev.sluice.core.http.Headers;
import dev.sluice.core.journal.ActionId;
import dev.sluice.core.journal.ActionRecord;
import dev.sluice.core.journal.ActionState;
import dev.sluice.core.journal.AttemptEnd;
import dev.sluice.core.journal.AttemptKind;
import dev.sluice.core.journal.AttemptRecord;
import dev.sluice.core.journal.IllegalTransitionException;
import java.util.NoSuchElementException;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class AttemptTest extends JournalTestBase {

  @Test
  void attemptsAreNumberedInOrderAndReadBackWithHowTheyEnded() {
    ActionRecord a = journal.recordAction(transfer("t", "k").build());
    AttemptRecord first = send(a, at(1));
    finish(first, AttemptEnd.response(429), at(2));
    move(reload(a), ActionState.DELAYED, dev.sluice.core.journal.ActionChanges.none().dueAt(at(12)), at(2));
    AttemptRecord second = send(reload(a), at(12));
    finish(second, AttemptEnd.failed(TransportFailure.CONNECT_TIMEOUT), at(17));

    assertThat(journal.attempts(a.actionId())).extracting(AttemptRecord::number).containsExactly(1, 2);
    AttemptRecord one = journal.attempts(a.actionId()).get(0);
    assertThat(one.kind()).isEqualTo(AttemptKind.SEND);
    assertThat(one.startedAt()).isEqualTo(at(1));
    assertThat(one.finishedAt()).contains(at(2));
    assertThat(one.end()).contains(AttemptEnd.response(429));
    assertThat(one.requestCommitted()).isTrue();
    assertThat(one.outcomeUnknown()).isFalse();
    assertThat(one.idempotencyKeySent()).contains("k");
    AttemptRecord two = journal.attempts(a.actionId()).get(1);
    assertThat(two.end()).contains(AttemptEnd.failed(TransportFailure.CONNECT_TIMEOUT));
    assertThat(two.requestCommitted()).as("a connect timeout sent nothing").isFalse();
    assertThat(two.outcomeUnknown()).isFalse();
    assertThat(reload(a).attemptsUsed()).isEqualTo(2);
  }

  @Test
  void anOpenAttemptIsReadBackOpenAndUnknown() {
    ActionRecord a = journal.recordAction(transfer("t", "k").build());
    send(a, at(1));

    AttemptRecord open = journal.attempts(a.actionId()).get(0);
    assertThat(open.finished()).isFalse();
    assertThat(open.finishedAt()).isEmpty();
    assertThat(open.outcomeUnknown()).isTrue();
  }

  @Test
  void aSendMustCarryTheActionsOwnKeyNeverANewOne() {
    ActionRecord a = move(journal.recordAction(transfer("t", "key-1").build()), ActionState.IN_FLIGHT);

    assertThatThrownBy(() -> journal.startAttempt(a.actionId(), AttemptKind.SEND, at(1), Optional.of("key-2")))
        .isInstanceOf(IllegalTransitionException.class)
        .hasMessageContaining("every send carries the action's own idempotency key")
        .hasMessageNotContaining("key-1")
        .hasMessageNotContaining("key-2");
    assertThatThrownBy(() -> journal.startAttempt(a.actionId(), AttemptKind.SEND, at(1), Optional.empty()))
        .hasMessageContaining("carries none");
    assertThat(journal.attempts(a.actionId())).isEmpty();
  }

  @Test
  void anActionWithoutAKeySendsNone() {
    ActionRecord a = move(journal.recordAction(invoiceRead("t").build()), ActionState.IN_FLIGHT);

    assertThatThrownBy(() -> journal.startAttempt(a.actionId(), AttemptKind.SEND, at(1), Optional.of("minted")))
        .hasMessageContaining("this one has none");
  }

  @Test
  void aSendNeedsTheActionInFlightAndALookupNeedsItReconciling() {
    ActionRecord a = journal.recordAction(transfer("t", "k").build());

    assertThatThrownBy(() -> journal.startAttempt(a.actionId(), AttemptKind.SEND, at(1), Optional.of("k")))
        .isInstanceOf(IllegalTransitionException.class)
        .hasMessageContaining("is queued; a send attempt needs it in_flight");
    ActionRecord inFlight = move(a, ActionState.IN_FLIGHT);
    assertThatThrownBy(() -> journal.startAttempt(inFlight.actionId(), AttemptKind.LOOKUP, at(1), Optional.empty()))
        .hasMessageContaining("is in_flight; a lookup attempt needs it reconciling");
  }

  @Test
  void oneAttemptAtATime() {
    ActionRecord a = journal.recordAction(invoiceRead("t").build());
    send(a, at(1));

    assertThatThrownBy(() -> journal.startAttempt(a.actionId(), AttemptKind.SEND, at(2), Optional.empty()))
        .isInstanceOf(IllegalTransitionException.class)
        .hasMessageContaining("attempt 1 is still open");
    assertThat(reload(a).attemptsUsed()).isEqualTo(1);
  }

  @Test
  void anAttemptEndsOnce() {
    ActionRecord a = journal.recordAction(invoiceRead("t").build());
    AttemptRecord attempt = send(a, at(1));
    finish(attempt, AttemptEnd.response(200), at(2));

    assertThatThrownBy(() -> finish(attempt, AttemptEnd.response(500), at(3)))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("already ended (200)");
    assertThat(journal.attempts(a.actionId()).get(0).end()).contains(AttemptEnd.response(200));
  }

  @Test
  void finishingAnAttemptThatDoesNotExistSaysSo() {
    ActionRecord a = journal.recordAction(invoiceRead("t").build());

    assertThatThrownBy(() -> journal.finishAttempt(a.actionId(), 1, AttemptEnd.response(200), at(1), Headers.empty()))
        .isInstanceOf(NoSuchElementException.class)
        .hasMessageContaining("has no attempt 1");
    assertThatThrownBy(() -> journal.startAttempt(ActionId.newId(at(0)), AttemptKind.SEND, at(1), Optional.empty()))
        .isInstanceOf(NoSuchElementException.class);
  }

  @Test
  void onlyRetryAfterAndRateLimitFieldsOfTheResponseAreKept() {
    ActionRecord a = journal.recordAction(invoiceRead("t").build());
    AttemptRecord attempt = send(a, at(1));
    Headers response = Headers.of(
        "Retry-After", "10",
        "RateLimit", "\"default\";r=0;t=10",
        "RateLimit-Policy", "\"default\";q=100;w=60",
        "x-ratelimit-remaining-requests", "0",
        "anthropic-ratelimit-requests-reset", "2026-11-30T10:00:10Z",
        "Set-Cookie", "session=hunter2",
        "Authorization", "Bearer sk-live-canary",
        "X-Request-Id", "req_123");

    AttemptRecord done = journal.finishAttempt(a.actionId(), attempt.number(), AttemptEnd.response(429), at(2), response);

    Headers stored = journal.attempts(a.actionId()).get(0).rateLimitHeaders();
    assertThat(stored).isEqualTo(done.rateLimitHeaders());
    assertThat(stored.names()).containsExactly("retry-after", "ratelimit", "ratelimit-policy", "x-ratelimit-remaining-requests",
        "anthropic-ratelimit-requests-reset");
    assertThat(stored.first("RateLimit")).contains("\"default\";r=0;t=10");
    assertThat(stored.toString()).doesNotContain("hunter2", "sk-live-canary", "req_123");
  }

  @Test
  void anAttemptAbandonedByACrashCountsAsPossiblyCommitted() {
    ActionRecord a = journal.recordAction(transfer("t", "k").build());
    AttemptRecord open = send(a, at(1));

    AttemptRecord abandoned = finish(open, AttemptEnd.abandoned(), at(50));

    assertThat(abandoned.requestCommitted()).isTrue();
    assertThat(abandoned.outcomeUnknown()).isTrue();
    assertThat(journal.attempts(a.actionId()).get(0).end()).contains(AttemptEnd.abandoned());
  }

  @Test
  void theAttemptsOfAnUnknownActionAreEmpty() {
    assertThat(journal.attempts(ActionId.newId(at(0)))).isEmpty();
  }
}
