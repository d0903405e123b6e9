package dev.sluice.acceptance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.core.Call;
import dev.sluice.core.engine.Outcome;
import dev.sluice.core.engine.OutcomeCode;
import dev.sluice.core.journal.ActionRecord;
import dev.sluice.core.journal.ActionState;
import dev.sluice.core.journal.AttemptKind;
import dev.sluice.core.journal.AttemptRecord;
import dev.sluice.fake.Attempt;
import dev.sluice.fake.FakeProvider;
import dev.sluice.fake.Fault;
import dev.sluice.fake.FaultRule;
import dev.sluice.fake.StoredRecord;
import dev.sluice.store.sqlite.SqliteJournal;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Seed step 4, three ways, counted at the fake provider, with every action journaled in a real
 * SQLite file: a write whose connection drops after the provider saved it is reconciled by a
 * look-up (by idempotency key, or by a client reference Sluice wrote into the body), never
 * created twice; with neither a key nor a look-up it is not sent again and stops for a person.
 */
class DurableWritesAtTheFakeProviderTest {
  static final String WITH_KEY = """
      idempotency_header: Idempotency-Key
      routes:
        - {method: POST, path: "/v1/transfers", class: idempotent_write,
           lookup: {method: GET, path: "/v1/transfers?idempotency_key={idempotency_key}"}}
      """;
  static final String WITH_REFERENCE = """
      routes:
        - {method: POST, path: "/records", class: uncertain_write, external_reference: client_reference,
           lookup: {method: GET, path: "/records?client_reference={external_reference}"}}
      """;
  static final String WITH_REFERENCE_AND_RETRIES = """
      routes:
        - {method: POST, path: "/records", class: idempotent_write, external_reference: client_reference,
           lookup: {method: GET, path: "/records?client_reference={external_reference}"}}
      """;
  static final String WITH_NEITHER = """
      routes:
        - {method: POST, path: "/records", class: uncertain_write}
      """;

  @TempDir Path dir;

  private static Outcome post(Harness h, String path, String body) throws Exception {
    return h.sluice.submit(Call.builder(Harness.PROVIDER, "POST", path).task("payer").header("Content-Type", "application/json").body(body).build())
        .get(20, TimeUnit.SECONDS);
  }

  private static List<Attempt> posts(FakeProvider fake) {
    return fake.attempts().stream().filter(a -> a.method().equals("POST")).toList();
  }

  @Test
  void aWriteWithAStableKeyDroppedAfterCommitIsReconciledByKeyAndExistsOnce() throws Exception {
    try (SqliteJournal journal = SqliteJournal.open(dir);
        Harness h = Harness.wallClock(FakeProvider.builder().fault(FaultRule.of(Fault.dropAfterCommit()).method("POST")), WITH_KEY, journal)) {
      Outcome o = post(h, "/v1/transfers", "{\"amount\":12500,\"currency\":\"USD\"}");

      assertThat(o.outcome()).isEqualTo(OutcomeCode.SUCCEEDED);
      assertThat(o.reconciled()).isTrue();
      assertThat(o.response().orElseThrow().status()).isEqualTo(200);
      assertThat(h.fake.records("transfers")).hasSize(1);
      assertThat(posts(h.fake)).singleElement().satisfies(a -> assertThat(a.result()).isEqualTo(Attempt.Result.DROPPED));
      String key = posts(h.fake).get(0).idempotencyKey().orElseThrow();
      assertThat(h.fake.records("transfers").get(0).idempotencyKey()).contains(key);
      assertThat(o.attempts()).isEqualTo(h.fake.attempts().size()).isEqualTo(2);

      ActionRecord action = journal.actionByIdempotencyKey(Harness.PROVIDER, key).orElseThrow();
      assertThat(action.state()).isEqualTo(ActionState.SUCCEEDED);
      assertThat(journal.attempts(action.actionId())).extracting(AttemptRecord::kind).containsExactly(AttemptKind.SEND, AttemptKind.LOOKUP);
      assertThat(journal.attempts(action.actionId()).get(0).idempotencyKeySent()).contains(key);
    }
  }

  @Test
  void aWriteToAProviderWithoutIdempotencyIsReconciledByItsClientReferenceAndExistsOnce() throws Exception {
    FakeProvider.Builder fake = FakeProvider.builder().idempotency("records", false).fault(FaultRule.of(Fault.dropAfterCommit()).method("POST"));
    try (SqliteJournal journal = SqliteJournal.open(dir); Harness h = Harness.wallClock(fake, WITH_REFERENCE, journal)) {
      Outcome o = post(h, "/records", "{\"name\":\"invite ada\"}");

      assertThat(o.outcome()).isEqualTo(OutcomeCode.SUCCEEDED);
      assertThat(o.reconciled()).isTrue();
      List<StoredRecord> records = h.fake.records("records");
      assertThat(records).hasSize(1);
      String reference = records.get(0).clientReference().orElseThrow();
      assertThat(reference).startsWith("sr_");
      assertThat(posts(h.fake)).hasSize(1);
      assertThat(h.fake.attempts()).extracting(Attempt::query).containsExactly("", "client_reference=" + reference);
      assertThat(journal.openActions()).isEmpty();
    }
  }

  @Test
  void aWriteWithNeitherKeyNorLookUpIsNotSentAgainAndStopsAtReconciliationRequired() throws Exception {
    FakeProvider.Builder fake = FakeProvider.builder().idempotency("records", false).fault(FaultRule.of(Fault.dropAfterCommit()).method("POST"));
    try (SqliteJournal journal = SqliteJournal.open(dir); Harness h = Harness.wallClock(fake, WITH_NEITHER, journal)) {
      Outcome o = post(h, "/records", "{\"name\":\"invite ada\"}");

      assertThat(o.outcome()).isEqualTo(OutcomeCode.RECONCILIATION_REQUIRED);
      assertThat(o.requestSent()).isTrue();
      assertThat(o.responseReceived()).isFalse();
      assertThat(o.attempts()).isEqualTo(1);
      assertThat(h.fake.attempts()).hasSize(1);
      assertThat(h.fake.records("records")).hasSize(1);
      assertThat(journal.openActions()).isEmpty();
    }
  }

  @Test
  void aLookUpThatProvesNoRecordLetsTheWriteBeResentWithTheSameReference() throws Exception {
    // 503 to a write without a key: the provider may have acted. The look-up proves it did not.
    FakeProvider.Builder fake = FakeProvider.builder().idempotency("records", false)
        .fault(FaultRule.of(Fault.unavailable()).method("POST").path("/records"));
    try (SqliteJournal journal = SqliteJournal.open(dir); Harness h = Harness.wallClock(fake, WITH_REFERENCE_AND_RETRIES, journal)) {
      Outcome o = post(h, "/records", "{\"name\":\"invite ada\",\"client_reference\":\"mine-1\"}");

      assertThat(o.outcome()).isEqualTo(OutcomeCode.SUCCEEDED);
      assertThat(o.reconciled()).isFalse(); // the resend's own answer
      assertThat(h.fake.attempts()).extracting(a -> a.method() + " " + a.status())
          .containsExactly("POST 503", "GET 200", "POST 201");
      assertThat(h.fake.records("records")).singleElement().satisfies(r -> assertThat(r.clientReference()).contains("mine-1"));
    }
  }

  @Test
  void aRepeatOfAKeyedCallIsNotSentAndIsNeverToldToUseANewKey() throws Exception {
    try (SqliteJournal journal = SqliteJournal.open(dir); Harness h = Harness.wallClock(FakeProvider.builder(), WITH_KEY, journal)) {
      Call call = Call.builder(Harness.PROVIDER, "POST", "/v1/transfers").task("payer").header("Content-Type", "application/json")
          .body("{\"amount\":5}").idempotencyKey("agent-key-1").build();
      Outcome first = h.sluice.submit(call).get(20, TimeUnit.SECONDS);
      Outcome repeat = h.sluice.submit(call).get(20, TimeUnit.SECONDS);

      assertThat(first.outcome()).isEqualTo(OutcomeCode.SUCCEEDED);
      assertThat(repeat.outcome()).isEqualTo(OutcomeCode.REFUSED);
      assertThat(repeat.reason()).startsWith("duplicate_idempotency_key");
      assertThat(repeat.requestSent()).isFalse();
      assertThat(repeat.nextSafeAction()).contains("do not send the same operation under a new key");
      assertThat(posts(h.fake)).hasSize(1);
      assertThat(h.fake.records("transfers")).hasSize(1);
    }
  }
}
