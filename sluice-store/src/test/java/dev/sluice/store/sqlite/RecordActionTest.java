package dev.sluice.store.sqlite;

import static dev.sluice.store.sqlite.Fixtures.T0;
import static dev.sluice.store.sqlite.Fixtures.at;
import static dev.sluice.store.sqlite.Fixtures.invoiceRead;
import static dev.sluice.store.sqlite.Fixtures.transfer;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.core.engine.ActionRequest;
import dev.sluice.core.engine.Priority;
import dev.sluice.core.http.Headers;
import dev.sluice.core.policy.RequestClass;
import dev.sluice.core.journal.ActionId;
import dev.sluice.core.journal.ActionRecord;
import dev.sluice.core.journal.ActionState;
import dev.sluice.core.journal.DuplicateIdempotencyKeyException;
import dev.sluice.core.journal.NewAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RecordActionTest {
  @TempDir Path dataDir;
  SqliteJournal journal;

  @BeforeEach
  void open() {
    journal = SqliteJournal.open(dataDir);
  }

  @AfterEach
  void close() {
    journal.close();
  }

  @Test
  void aRecordedWriteKeepsEverythingNeededToSendItAgain() throws Exception {
    NewAction write = transfer("task-1", "key-abc").externalReference("ref-123").deadline(at(300)).build();

    ActionRecord recorded = journal.recordAction(write);

    assertThat(recorded.state()).isEqualTo(ActionState.QUEUED);
    assertThat(recorded.write()).isTrue();
    assertThat(recorded.taskId()).isEqualTo("task-1");
    assertThat(recorded.priority()).isEqualTo(Priority.INTERACTIVE);
    assertThat(recorded.scope()).isEqualTo(Fixtures.BILLING);
    assertThat(recorded.method()).isEqualTo("POST");
    assertThat(recorded.routeTemplate()).isEqualTo("/v1/transfers");
    assertThat(recorded.target()).isEqualTo("/v1/transfers");
    assertThat(recorded.requestClass()).isEqualTo(RequestClass.SEED_IDEMPOTENT_WRITE);
    assertThat(recorded.headers()).isEqualTo(Headers.of("Content-Type", "application/json"));
    assertThat(recorded.keptPayload()).hasValueSatisfying(p -> assertThat(p).isEqualTo(write.payload()));
    assertThat(recorded.payloadSize()).isEqualTo(write.payload().length);
    assertThat(recorded.payloadDigest()).isEqualTo(HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(write.payload())));
    assertThat(recorded.idempotencyKey()).contains("key-abc");
    assertThat(recorded.externalReference()).contains("ref-123");
    assertThat(recorded.providerOperationId()).isEmpty();
    assertThat(recorded.createdAt()).isEqualTo(T0);
    assertThat(recorded.dueAt()).isEqualTo(T0);
    assertThat(recorded.deadline()).contains(at(300));
    assertThat(recorded.attemptsUsed()).isZero();
    assertThat(recorded.waited()).isEqualTo(Duration.ZERO);
    assertThat(recorded.outcome()).isEmpty();
    assertThat(recorded.version()).isEqualTo(1);
    assertThat(journal.action(recorded.actionId())).contains(recorded);
  }

  @Test
  void theStoreAssignsADistinctTimeOrderedIdToEveryAction() {
    ActionRecord first = journal.recordAction(invoiceRead("t").build());
    ActionRecord second = journal.recordAction(NewAction.builder("t", Fixtures.BILLING, "GET", "/x", "/x", RequestClass.SEED_READ,
        T0.plusSeconds(1)).build());

    assertThat(first.actionId()).isNotEqualTo(second.actionId());
    assertThat(first.actionId().value()).hasSize(26);
    assertThat(first.actionId()).isLessThan(second.actionId());
  }

  @Test
  void anActionCanStartDelayedWithItsDueTime() {
    ActionRecord r = journal.recordAction(transfer("t", "k").delayedUntil(at(10)).build());

    assertThat(r.state()).isEqualTo(ActionState.DELAYED);
    assertThat(r.dueAt()).isEqualTo(at(10));
  }

  @Test
  void theEnginesRequestMapsOntoANewAction() {
    ActionRequest req = new ActionRequest("task-9", Priority.BACKGROUND, Fixtures.BILLING, RequestClass.SEED_IDEMPOTENT_WRITE, "post",
        "/v1/transfers", "/v1/transfers?x=1", Headers.of("Content-Type", "application/json"), "{}".getBytes(StandardCharsets.UTF_8), false,
        Optional.of("k-9"), true);

    ActionRecord r = journal.recordAction(NewAction.from(req, T0).build());

    assertThat(r.method()).isEqualTo("POST");
    assertThat(r.target()).isEqualTo("/v1/transfers?x=1");
    assertThat(r.idempotencyKey()).contains("k-9");
    assertThat(r.keptPayload()).hasValueSatisfying(p -> assertThat(new String(p, StandardCharsets.UTF_8)).isEqualTo("{}"));
    assertThat(r.priority()).isEqualTo(Priority.BACKGROUND);
  }

  @Test
  void aSecondActionWithTheSameKeyAtTheSameProviderIsRefusedAndNamesTheFirst() {
    ActionRecord first = journal.recordAction(transfer("t1", "same-key").build());

    assertThatThrownBy(() -> journal.recordAction(transfer("t2", "same-key").build()))
        .isInstanceOfSatisfying(DuplicateIdempotencyKeyException.class, e -> assertThat(e.existing()).isEqualTo(first.actionId()))
        .hasMessageContaining("billing-api")
        .hasMessageNotContaining("same-key");
    assertThat(journal.actionByIdempotencyKey("billing-api", "same-key")).map(ActionRecord::actionId).contains(first.actionId());
    assertThat(journal.actionByIdempotencyKey("other-api", "same-key")).isEmpty();
  }

  @Test
  void theSameKeyAtAnotherProviderIsAnotherAction() {
    journal.recordAction(transfer("t1", "k").build());
    NewAction elsewhere = NewAction.builder("t1", new dev.sluice.core.scope.ScopeId("crm-api", "default"), "POST", "/records", "/records",
        RequestClass.SEED_UNCERTAIN_WRITE, T0).idempotencyKey("k").build();

    assertThat(journal.recordAction(elsewhere).idempotencyKey()).contains("k");
  }

  @Test
  void actionsWithoutKeysDoNotCollide() {
    journal.recordAction(invoiceRead("t").build());
    journal.recordAction(invoiceRead("t").build());

    assertThat(journal.openActions()).hasSize(2);
  }

  @Test
  void aPayloadOverTheCapKeepsOnlyItsDigestAndSize(@TempDir Path otherDir) {
    try (SqliteJournal small = SqliteJournal.open(otherDir, SqliteJournalOptions.DEFAULTS.withPayloadCapBytes(8))) {
      ActionRecord big = small.recordAction(transfer("t", "k1").payload(new byte[9]).build());
      ActionRecord fits = small.recordAction(transfer("t", "k2").payload(new byte[8]).build());

      assertThat(big.payloadKept()).isFalse();
      assertThat(big.keptPayload()).isEmpty();
      assertThat(big.payloadSize()).isEqualTo(9);
      assertThat(big.payloadDigest()).hasSize(64);
      assertThat(small.action(big.actionId()).orElseThrow().payloadKept()).isFalse();
      assertThat(fits.payloadKept()).isTrue();
      assertThat(small.action(fits.actionId()).orElseThrow().keptPayload()).hasValueSatisfying(p -> assertThat(p).hasSize(8));
    }
  }

  @Test
  void anEmptyPayloadIsKeptAsEmpty() {
    ActionRecord r = journal.recordAction(invoiceRead("t").build());

    ActionRecord read = journal.action(r.actionId()).orElseThrow();
    assertThat(read.payloadKept()).isTrue();
    assertThat(read.payload()).isEmpty();
    assertThat(read.payloadDigest()).isEqualTo("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  }

  @Test
  void instantsAreKeptToTheMicrosecond() {
    Instant nanos = Instant.parse("2026-11-30T10:00:00.123456789Z");
    ActionRecord r = journal.recordAction(NewAction.builder("t", Fixtures.BILLING, "GET", "/x", "/x", RequestClass.SEED_READ, nanos).build());

    Instant micros = Instant.parse("2026-11-30T10:00:00.123456Z");
    assertThat(r.createdAt()).isEqualTo(micros);
    assertThat(journal.action(r.actionId()).orElseThrow().createdAt()).isEqualTo(micros);
  }

  @Test
  void anUnknownIdFindsNothing() {
    assertThat(journal.action(ActionId.newId(T0))).isEmpty();
  }

  @Test
  void newActionsRefuseWhatCannotBeSentAgainSafely() {
    assertThatThrownBy(() -> transfer("t", "k").dueAt(T0.minusSeconds(1)).build()).hasMessageContaining("before it was created");
    assertThatThrownBy(() -> NewAction.builder("t", Fixtures.BILLING, "POST", "/x", "https://evil.example/x", RequestClass.SEED_READ, T0).build())
        .hasMessageContaining("origin-form");
    assertThatThrownBy(() -> NewAction.builder("t", Fixtures.BILLING, "POST", "/x", "//evil.example/x", RequestClass.SEED_READ, T0).build())
        .hasMessageContaining("origin-form");
    assertThatThrownBy(() -> transfer("t", "bad\nkey").build()).hasMessageContaining("idempotency key");
    assertThatThrownBy(() -> NewAction.builder("t", Fixtures.BILLING, "post", "/x", "/x", RequestClass.SEED_READ, T0).build())
        .hasMessageContaining("upper-case");
  }

  @Test
  void credentialHeadersAreRefusedWithoutShowingTheirValue() {
    for (String name : new String[] {"Authorization", "proxy-authorization", "Cookie"}) {
      assertThatThrownBy(() -> transfer("t", "k").headers(Headers.of(name, "Bearer sk-canary")).build())
          .as(name)
          .hasMessageContaining("keeps no credential")
          .hasMessageNotContaining("sk-canary");
    }
  }

  @Test
  void aClosedJournalRefusesEveryCall() {
    journal.close();

    assertThatThrownBy(() -> journal.recordAction(transfer("t", "k").build())).isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("is closed");
    assertThatThrownBy(() -> journal.openActions()).isInstanceOf(IllegalStateException.class);
    journal.close(); // closing twice is harmless
  }

  @Test
  void toStringNeverShowsTheKeyHeadersOrPayload() {
    ActionRecord r = journal.recordAction(transfer("t", "secret-ish-key").headers(Headers.of("X-Api-Key", "hunter2")).build());

    assertThat(r.toString()).doesNotContain("secret-ish-key", "hunter2", "amount");
  }
}
