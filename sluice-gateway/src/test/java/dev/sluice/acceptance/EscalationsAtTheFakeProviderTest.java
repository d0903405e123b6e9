package dev.sluice.acceptance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.core.Call;
import dev.sluice.core.Submission;
import dev.sluice.core.engine.Outcome;
import dev.sluice.core.engine.OutcomeCode;
import dev.sluice.core.escalation.DecisionException;
import dev.sluice.core.escalation.DecisionOption;
import dev.sluice.core.escalation.DecisionRequest;
import dev.sluice.core.escalation.DecisionResult;
import dev.sluice.core.escalation.Escalation;
import dev.sluice.core.escalation.EscalationJson;
import dev.sluice.core.escalation.EscalationState;
import dev.sluice.core.escalation.Option;
import dev.sluice.core.escalation.Trigger;
import dev.sluice.core.journal.ActionState;
import dev.sluice.fake.Attempt;
import dev.sluice.fake.FakeProvider;
import dev.sluice.fake.Fault;
import dev.sluice.fake.FaultRule;
import dev.sluice.store.sqlite.SqliteJournal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Escalations end to end (issue 7): raised where the machine cannot know or cannot go on, the
 * dossier secret-free, each decision really done — every count taken from the fake provider's
 * attempt log, over real sockets, with a real SQLite journal.
 */
class EscalationsAtTheFakeProviderTest {
  static final ObjectMapper JSON = new ObjectMapper();
  static final String RECORDS_NO_LOOKUP = """
      routes:
        - {method: POST, path: "/records", class: uncertain_write}
      """;
  static final String RECORDS_WITH_LOOKUP = """
      routes:
        - {method: POST, path: "/records", class: uncertain_write, external_reference: client_reference,
           lookup: {method: GET, path: "/records?client_reference={external_reference}"}}
      """;
  static final String INVOICES_AND_TRANSFERS = """
      idempotency_header: Idempotency-Key
      routes:
        - {method: GET, path: "/v1/invoices/{id}", class: read}
        - {method: POST, path: "/v1/transfers", class: idempotent_write,
           lookup: {method: GET, path: "/v1/transfers?idempotency_key={idempotency_key}"}}
      """;

  @TempDir Path dir;

  static List<Attempt> of(FakeProvider fake, String method) {
    return fake.attempts().stream().filter(a -> a.method().equals(method)).toList();
  }

  static void assertSecretFree(Escalation e) throws Exception {
    String json = JSON.writeValueAsString(EscalationJson.of(e));
    for (String form : List.of(Harness.SECRET, Base64.getEncoder().encodeToString(Harness.SECRET.getBytes(StandardCharsets.UTF_8)),
        "Bearer " + Harness.SECRET)) {
      assertThat(json).doesNotContain(form);
    }
    assertThat(json.toLowerCase(java.util.Locale.ROOT)).doesNotContain("authorization");
  }

  @Test
  void anUnreconcilableWriteIsEscalatedAndSendNewNeedsConfirmationThenSendsExactlyOneNewPost() throws Exception {
    FakeProvider.Builder fake = FakeProvider.builder().idempotency("records", false)
        .fault(FaultRule.of(Fault.dropAfterCommit()).method("POST"));
    try (SqliteJournal journal = SqliteJournal.open(dir); Harness h = Harness.wallClock(fake, RECORDS_NO_LOOKUP, journal)) {
      Submission s = h.sluice.start(Call.builder(Harness.PROVIDER, "POST", "/records").task("inviter").goal("invite ada to the workspace")
          .header("Content-Type", "application/json").body("{\"name\":\"ada\",\"email\":\"ada@example.com\"}").build());
      Outcome o = s.outcome().get(20, TimeUnit.SECONDS);

      assertThat(o.outcome()).isEqualTo(OutcomeCode.RECONCILIATION_REQUIRED);
      assertThat(o.reason()).endsWith("escalated to an operator as E-1");
      assertThat(o.nextSafeAction()).contains("E-1").contains("never under a new idempotency key");
      assertThat(of(h.fake, "POST")).hasSize(1);
      assertThat(h.sluice.action(s.actionId().orElseThrow()).orElseThrow().state()).isEqualTo(ActionState.ESCALATED);

      Escalation e = h.sluice.escalations().get(0);
      assertThat(e.trigger()).isEqualTo(Trigger.UNCERTAIN_WRITE);
      assertThat(e.state()).isEqualTo(EscalationState.OPEN);
      // No key, no look-up: nothing can be queried or safely resent with a key.
      assertThat(e.options()).extracting(Option::option).containsExactly(DecisionOption.CANCEL, DecisionOption.SEND_NEW);
      assertThat(e.option(DecisionOption.SEND_NEW).orElseThrow().requiresConfirmation()).isTrue();
      assertThat(e.option(DecisionOption.SEND_NEW).orElseThrow().risk()).contains("second external effect");
      assertThat(e.dossier().goal()).contains("invite ada to the workspace");
      assertThat(e.dossier().method()).isEqualTo("POST");
      assertThat(e.dossier().endpoint()).isEqualTo("/records");
      assertThat(e.dossier().attempts()).singleElement().satisfies(a -> {
        assertThat(a.failure()).isPresent();
        assertThat(a.requestCommitted()).isTrue();
      });
      assertThat(e.dossier().body().topLevelFields()).containsExactly("name", "email");
      assertThat(e.dossier().body().sha256()).hasSize(64);
      assertThat(JSON.writeValueAsString(EscalationJson.of(e))).doesNotContain("ada@example.com");
      assertSecretFree(e);

      assertThatThrownBy(() -> h.sluice.decide(e.id(), DecisionRequest.of(DecisionOption.SEND_NEW, "ops-ana", "provider shows nothing")))
          .isInstanceOf(DecisionException.class).hasMessageContaining("explicit confirmation");
      assertThatThrownBy(() -> h.sluice.decide(e.id(), DecisionRequest.of(DecisionOption.QUERY_EXISTING, "ops-ana", "look")))
          .isInstanceOf(DecisionException.class).hasMessageContaining("offered: cancel, send_new");
      assertThat(h.sluice.escalation(e.id()).orElseThrow().open()).isTrue();
      assertThat(of(h.fake, "POST")).as("refused decisions send nothing").hasSize(1);

      DecisionResult r = h.sluice.decide(e.id(), new DecisionRequest(DecisionOption.SEND_NEW, "ops-ana", "provider console shows no record", true));
      Outcome second = r.outcome().orElseThrow().get(20, TimeUnit.SECONDS);

      assertThat(second.outcome()).isEqualTo(OutcomeCode.SUCCEEDED);
      assertThat(r.actionId()).isPresent().isNotEqualTo(s.actionId());
      assertThat(of(h.fake, "POST")).hasSize(2);
      assertThat(r.escalation().decision().orElseThrow().by()).isEqualTo("ops-ana");
      assertThat(r.escalation().decision().orElseThrow().confirmation()).isTrue();
      // An action's escalations are its own: the escalated write has E-1 (decided now), the new send none.
      assertThat(h.sluice.escalationsOf(s.actionId().orElseThrow())).singleElement()
          .satisfies(x -> assertThat(x.id()).isEqualTo(e.id())).satisfies(x -> assertThat(x.open()).isFalse());
      assertThat(h.sluice.escalationsOf(r.actionId().orElseThrow())).isEmpty();
      assertThat(h.sluice.action(s.actionId().orElseThrow()).orElseThrow().state()).isEqualTo(ActionState.CANCELLED);
      assertThatThrownBy(() -> h.sluice.decide(e.id(), DecisionRequest.of(DecisionOption.CANCEL, "ops-bo", "too late")))
          .isInstanceOf(DecisionException.class).hasMessageContaining("already decided: send_new by ops-ana");
    }
  }

  @Test
  void queryExistingSendsExactlyOneLookUpAndNoPostAndFindsTheRecord() throws Exception {
    // The write is saved and its answer lost; every look-up of the reconciliation's budget meets a 503.
    FakeProvider.Builder fake = FakeProvider.builder().idempotency("records", false)
        .fault(FaultRule.of(Fault.dropAfterCommit()).method("POST"))
        .fault(FaultRule.of(Fault.unavailable()).method("GET").path("/records").times(4));
    try (SqliteJournal journal = SqliteJournal.open(dir);
        Harness h = Harness.virtualTime(fake, RECORDS_WITH_LOOKUP, journal, b -> b)) {
      Submission s = h.sluice.start(Call.builder(Harness.PROVIDER, "POST", "/records").task("inviter")
          .header("Content-Type", "application/json").body("{\"name\":\"ada\"}").build());
      h.runUntil(Harness.T0.plusSeconds(300));
      Outcome o = s.outcome().get(20, TimeUnit.SECONDS);

      assertThat(o.outcome()).isEqualTo(OutcomeCode.RECONCILIATION_REQUIRED);
      assertThat(of(h.fake, "POST")).hasSize(1);
      assertThat(of(h.fake, "GET")).hasSize(4).allSatisfy(a -> assertThat(a.status()).isEqualTo(503));
      Escalation e = h.sluice.escalations().get(0);
      assertThat(e.options()).extracting(Option::option)
          .containsExactly(DecisionOption.QUERY_EXISTING, DecisionOption.CANCEL, DecisionOption.SEND_NEW);
      assertThat(e.dossier().reconciliationQuery().orElseThrow()).startsWith("GET /records?client_reference=sr_");
      assertThat(e.dossier().attempts()).extracting(a -> a.kind()).containsExactly("send", "lookup", "lookup", "lookup", "lookup");

      DecisionResult r = h.sluice.decide(e.id(), DecisionRequest.of(DecisionOption.QUERY_EXISTING, "ops-ana", "the provider is back"));
      h.runUntil(Harness.T0.plusSeconds(400));
      Outcome found = r.outcome().orElseThrow().get(20, TimeUnit.SECONDS);

      assertThat(found.outcome()).isEqualTo(OutcomeCode.SUCCEEDED);
      assertThat(found.reconciled()).isTrue();
      assertThat(of(h.fake, "GET")).as("exactly one look-up after the decision").hasSize(5);
      assertThat(of(h.fake, "GET").get(4).status()).isEqualTo(200);
      assertThat(of(h.fake, "POST")).as("nothing resent").hasSize(1);
      assertThat(h.fake.records("records")).hasSize(1);
      assertThat(h.sluice.action(s.actionId().orElseThrow()).orElseThrow().state()).isEqualTo(ActionState.SUCCEEDED);
    }
  }

  static final String APPROVED_TRANSFERS = """
      idempotency_header: Idempotency-Key
      routes:
        - {method: POST, path: "/v1/transfers", class: idempotent_write, approval: per_call}
      """;

  @Test
  void aPerCallApprovalHoldsTheActionDurablyAcrossARestartAndOnlyTheApprovalSendsIt() throws Exception {
    Path auditDir = dir.resolve("audit");
    dev.sluice.core.audit.AuditLog audit = dev.sluice.core.audit.AuditLog.open(dev.sluice.core.audit.AuditSettings.in(auditDir), () -> Harness.T0);
    dev.sluice.core.journal.ActionId id;
    String key;
    try (SqliteJournal journal = SqliteJournal.open(dir.resolve("journal"))) {
      try (Harness h = Harness.virtualTime(FakeProvider.builder(), APPROVED_TRANSFERS, journal, b -> b.audit(audit))) {
        Submission s = h.sluice.start(Call.builder(Harness.PROVIDER, "POST", "/v1/transfers").task("payer").goal("pay supplier 42")
            .header("Content-Type", "application/json").body("{\"amount\":700,\"currency\":\"EUR\"}").build());
        h.runUntil(Harness.T0.plusSeconds(600));

        id = s.actionId().orElseThrow();
        assertThat(s.outcome()).isNotDone();
        assertThat(h.sluice.pending(id)).contains(s.outcome());
        assertThat(h.fake.attempts()).as("nothing reaches the provider before an approval").isEmpty();
        dev.sluice.core.journal.ActionRecord held = h.sluice.action(id).orElseThrow();
        assertThat(held.state()).isEqualTo(ActionState.AWAITING_APPROVAL);
        key = held.idempotencyKey().orElseThrow();
        Escalation e = h.sluice.escalations().get(0);
        assertThat(e.trigger()).isEqualTo(Trigger.APPROVAL_REQUIRED);
        assertThat(e.options()).extracting(Option::option).containsExactly(DecisionOption.APPROVE, DecisionOption.REJECT);
        assertThat(e.dossier().goal()).contains("pay supplier 42");
        assertThat(e.dossier().attempts()).isEmpty();
      }
      // Restart: still held, still pending, still nothing sent.
      try (Harness h = Harness.virtualTime(FakeProvider.builder(), APPROVED_TRANSFERS, journal, b -> b.audit(audit))) {
        assertThat(h.sluice.action(id).orElseThrow().state()).isEqualTo(ActionState.AWAITING_APPROVAL);
        CompletableFuture<Outcome> pending = h.sluice.pending(id).orElseThrow();
        assertThat(pending).isNotDone();
        Escalation e = h.sluice.escalations().get(0);
        assertThat(e.open()).isTrue();
        h.runUntil(Harness.T0.plusSeconds(60));
        assertThat(h.fake.attempts()).isEmpty();
        assertThat(new String(h.sluice.escalationBody(e.id(), "cfo-maria", "check the amount").orElseThrow(), StandardCharsets.UTF_8))
            .isEqualTo("{\"amount\":700,\"currency\":\"EUR\"}");

        DecisionResult r = h.sluice.decide(e.id(), DecisionRequest.of(DecisionOption.APPROVE, "cfo-maria", "invoice 42 checked"));
        h.runUntil(Harness.T0.plusSeconds(120));
        Outcome o = pending.get(20, TimeUnit.SECONDS);

        assertThat(o.outcome()).isEqualTo(OutcomeCode.SUCCEEDED);
        assertThat(r.outcome().orElseThrow().get(20, TimeUnit.SECONDS)).isEqualTo(o);
        assertThat(h.fake.attempts()).singleElement().satisfies(a -> {
          assertThat(a.method()).isEqualTo("POST");
          assertThat(a.idempotencyKey()).contains(key);
        });
        assertThat(h.sluice.action(id).orElseThrow().state()).isEqualTo(ActionState.SUCCEEDED);
      }
    }
    audit.close();
    List<String> events = new java.util.ArrayList<>();
    for (String l : java.nio.file.Files.readAllLines(auditDir.resolve("audit-000001.log"))) {
      events.add(JSON.readTree(l).path("event").asText());
    }
    assertThat(events).as("one escalation, one escalated record").filteredOn("escalated"::equals).hasSize(1);
    assertThat(events).containsSubsequence("action_requested", "escalated", "escalation_body_viewed", "decision_recorded", "action_sent",
        "action_result");
    assertThat(events.subList(0, events.indexOf("decision_recorded"))).as("nothing sent before the approval").doesNotContain("action_sent");
    String opened = java.nio.file.Files.readAllLines(auditDir.resolve("audit-000001.log")).stream()
        .filter(l -> l.contains("\"event\":\"escalated\"")).findFirst().orElseThrow();
    assertThat(opened).contains("\"trigger\":\"approval_required\"").contains("\"options\":\"approve,reject\"");
    String viewed = java.nio.file.Files.readAllLines(auditDir.resolve("audit-000001.log")).stream()
        .filter(l -> l.contains("escalation_body_viewed")).findFirst().orElseThrow();
    assertThat(viewed).contains("cfo-maria").contains("check the amount").doesNotContain("700");
    String decision = java.nio.file.Files.readAllLines(auditDir.resolve("audit-000001.log")).stream()
        .filter(l -> l.contains("decision_recorded")).findFirst().orElseThrow();
    assertThat(decision).contains("cfo-maria").contains("approve").contains("approval_required");
  }

  @Test
  void aRejectedApprovalSendsNothingAndTellsTheAgent() throws Exception {
    try (SqliteJournal journal = SqliteJournal.open(dir); Harness h = Harness.virtualTime(FakeProvider.builder(), APPROVED_TRANSFERS, journal, b -> b)) {
      Submission s = h.sluice.start(Call.builder(Harness.PROVIDER, "POST", "/v1/transfers").task("payer")
          .header("Content-Type", "application/json").body("{\"amount\":700}").build());
      Escalation e = h.sluice.escalations().get(0);
      h.sluice.decide(e.id(), DecisionRequest.of(DecisionOption.REJECT, "cfo-maria", "not ours"));
      h.runUntil(Harness.T0.plusSeconds(600));

      Outcome o = s.outcome().get(20, TimeUnit.SECONDS);
      assertThat(o.outcome()).isEqualTo(OutcomeCode.CANCELLED);
      assertThat(o.requestSent()).isFalse();
      assertThat(o.reason()).contains("rejected").contains("cfo-maria");
      assertThat(h.fake.attempts()).isEmpty();
      assertThat(h.sluice.action(s.actionId().orElseThrow()).orElseThrow().state()).isEqualTo(ActionState.CANCELLED);
    }
  }

  @Test
  void aCancelledTasksEscalatedWriteIsNeverResentByADecisionAfterARestartAndTheRefusalRecordsNothing() throws Exception {
    // Regression (review): after a restart the engine did not know the task was cancelled, and
    // send_new / retry_same_key sent the write again; a refused decision was recorded anyway.
    FakeProvider.Builder fake = FakeProvider.builder().idempotency("records", false).fault(FaultRule.of(Fault.dropAfterCommit()).method("POST"));
    try (SqliteJournal journal = SqliteJournal.open(dir)) {
      Escalation e;
      try (Harness first = Harness.wallClock(fake, RECORDS_NO_LOOKUP, journal)) {
        Submission s = first.sluice.start(Call.builder(Harness.PROVIDER, "POST", "/records").task("inviter")
            .header("Content-Type", "application/json").body("{\"name\":\"ada\"}").build());
        assertThat(s.outcome().get(20, TimeUnit.SECONDS).outcome()).isEqualTo(OutcomeCode.RECONCILIATION_REQUIRED);
        e = first.sluice.escalations().get(0);
        first.sluice.cancel("inviter");
        assertThat(of(first.fake, "POST")).hasSize(1);
      }
      try (Harness next = Harness.wallClock(FakeProvider.builder().idempotency("records", false), RECORDS_NO_LOOKUP, journal)) {
        assertThatThrownBy(() -> next.sluice.decide(e.id(), new DecisionRequest(DecisionOption.SEND_NEW, "ops-ana", "resend", true)))
            .isInstanceOf(DecisionException.class).hasMessageContaining("was cancelled");
        assertThat(next.sluice.escalation(e.id()).orElseThrow().open()).as("a refused decision records nothing").isTrue();
        assertThat(next.fake.attempts()).isEmpty();
        DecisionResult r = next.sluice.decide(e.id(), DecisionRequest.of(DecisionOption.CANCEL, "ops-ana", "the task is gone"));
        assertThat(r.escalation().decision().orElseThrow().option()).isEqualTo(DecisionOption.CANCEL);
        assertThat(next.fake.attempts()).isEmpty();
      }
    }
  }

  @Test
  void anApprovalRecordedJustBeforeAStopIsCarriedOutByTheNextStartExactlyOnce() throws Exception {
    // Regression (review): the decision and the action's change are two commits; a stop between
    // them left the action held for good, and a new decision was refused as a repeat.
    try (SqliteJournal journal = SqliteJournal.open(dir)) {
      dev.sluice.core.escalation.EscalationId id;
      try (Harness first = Harness.virtualTime(FakeProvider.builder(), APPROVED_TRANSFERS, journal, b -> b)) {
        first.sluice.start(Call.builder(Harness.PROVIDER, "POST", "/v1/transfers").task("payer").idempotencyKey("k-approve")
            .header("Content-Type", "application/json").body("{\"amount\":700}").build());
        id = first.sluice.escalations().get(0).id();
        assertThat(first.fake.attempts()).isEmpty();
      }
      // What the process had committed when it died: the decision, not yet the action's change.
      journal.decide(id, new dev.sluice.core.escalation.Decision(DecisionOption.APPROVE, "cfo-maria", "invoice checked", false, Harness.T0));
      try (Harness next = Harness.virtualTime(FakeProvider.builder(), APPROVED_TRANSFERS, journal, b -> b)) {
        next.runUntil(Harness.T0.plusSeconds(60));
        assertThat(next.fake.attempts()).extracting(a -> a.method() + " " + a.idempotencyKey().orElse("-")).containsExactly("POST k-approve");
      }
      try (Harness again = Harness.virtualTime(FakeProvider.builder(), APPROVED_TRANSFERS, journal, b -> b)) {
        again.runUntil(Harness.T0.plusSeconds(60));
        assertThat(again.fake.attempts()).as("carried out once, not at every start").isEmpty();
      }
    }
  }

  @Test
  void cancellingATaskCancelsItsActionHeldForApprovalAndALaterApprovalSendsNothing() throws Exception {
    // Regression (MCP review): cancel touched only the engines' queues, so a held action stayed
    // awaiting approval, its caller waiting, after its task was cancelled.
    try (SqliteJournal journal = SqliteJournal.open(dir); Harness h = Harness.virtualTime(FakeProvider.builder(), APPROVED_TRANSFERS, journal, b -> b)) {
      Submission s = h.sluice.start(Call.builder(Harness.PROVIDER, "POST", "/v1/transfers").task("payer")
          .header("Content-Type", "application/json").body("{\"amount\":700}").build());
      Escalation e = h.sluice.escalations().get(0);
      assertThat(h.sluice.cancel("payer")).isEqualTo(1);

      Outcome o = s.outcome().get(20, TimeUnit.SECONDS);
      assertThat(o.outcome()).isEqualTo(OutcomeCode.CANCELLED);
      assertThat(o.requestSent()).isFalse();
      assertThat(h.sluice.action(s.actionId().orElseThrow()).orElseThrow().state()).isEqualTo(ActionState.CANCELLED);
      assertThat(h.sluice.escalation(e.id()).orElseThrow().open()).as("the withdrawn approval asks no one").isFalse();
      assertThat(h.sluice.escalation(e.id()).orElseThrow().decision().orElseThrow().by()).isEqualTo("sluice");
      assertThatThrownBy(() -> h.sluice.decide(e.id(), DecisionRequest.of(DecisionOption.APPROVE, "cfo-maria", "late")))
          .hasMessageContaining("already decided");
      h.runUntil(Harness.T0.plusSeconds(600));
      assertThat(h.fake.attempts()).isEmpty();
    }
  }

  @Test
  void moreRateLimitsPerHourThanConfiguredOnAScopeWithAConfiguredQuotaRaiseOneEscalationAndTheWorkGoesOn() throws Exception {
    // The policy says 100 requests a minute; the provider refuses every other request: a configuration problem.
    String yaml = """
        rate: {requests: 100, per_seconds: 60}
        routes:
          - {method: GET, path: "/v1/invoices/{id}", class: read}
        """;
    FakeProvider.Builder fake = FakeProvider.builder().fault(FaultRule.of(Fault.rateLimited(Duration.ofSeconds(1))).method("GET").times(3));
    try (SqliteJournal journal = SqliteJournal.open(dir);
        Harness h = Harness.virtualTime(fake, "escalation: {rate_limits_per_hour: 2}\n", yaml, journal, b -> b)) {
      Submission s = h.sluice.start(Call.builder(Harness.PROVIDER, "GET", "/v1/invoices/inv_1").task("reader").build());
      h.runUntil(Harness.T0.plusSeconds(80));
      Outcome o = s.outcome().get(20, TimeUnit.SECONDS);

      assertThat(o.outcome()).as("the escalation does not stop the work").isEqualTo(OutcomeCode.SUCCEEDED);
      assertThat(h.fake.attempts()).extracting(Attempt::status).containsExactly(429, 429, 429, 200);
      assertThat(h.sluice.escalations()).singleElement().satisfies(e -> {
        assertThat(e.trigger()).isEqualTo(Trigger.REPEATED_RATE_LIMITS);
        assertThat(e.detail()).contains("3 responses 429 within an hour").contains("rate_limits_per_hour (2)");
        assertThat(e.options()).extracting(Option::option).containsExactly(DecisionOption.ACKNOWLEDGE, DecisionOption.CANCEL);
      });
    }
  }

  @Test
  void theWebhookGetsTheDossierSignedWithTheSecretFromTheEnvironmentAndRetriesA503WithinItsBudget() throws Exception {
    List<byte[]> bodies = java.util.Collections.synchronizedList(new java.util.ArrayList<>());
    List<String> signatures = java.util.Collections.synchronizedList(new java.util.ArrayList<>());
    java.util.concurrent.CountDownLatch delivered = new java.util.concurrent.CountDownLatch(2);
    com.sun.net.httpserver.HttpServer server = com.sun.net.httpserver.HttpServer.create(new java.net.InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext("/hook", x -> {
      byte[] b = x.getRequestBody().readAllBytes();
      bodies.add(b);
      signatures.add(x.getRequestHeaders().getFirst("Sluice-Signature"));
      int status = bodies.size() == 1 ? 503 : 204; // the first delivery fails, the retry lands
      x.sendResponseHeaders(status, -1);
      x.close();
      delivered.countDown();
    });
    server.start();
    String hookSecret = "hook-secret-canary";
    String top = "escalation:\n  webhook: {url: \"http://127.0.0.1:" + server.getAddress().getPort() + "/hook\", secret_env: HOOK_SECRET, max_attempts: 3}\n";
    FakeProvider.Builder fake = FakeProvider.builder().idempotency("records", false).fault(FaultRule.of(Fault.dropAfterCommit()).method("POST"));
    try (SqliteJournal journal = SqliteJournal.open(dir);
        Harness h = Harness.virtualTime(fake, top, RECORDS_NO_LOOKUP, journal,
            b -> b.secrets(name -> name.equals("HOOK_SECRET") ? java.util.Optional.of(hookSecret) : java.util.Optional.empty()))) {
      Submission s = h.sluice.start(Call.builder(Harness.PROVIDER, "POST", "/records").task("inviter")
          .header("Content-Type", "application/json").body("{\"name\":\"ada\"}").build());
      h.runUntil(Harness.T0.plusSeconds(1));
      s.outcome().get(20, TimeUnit.SECONDS);
      // The retry is due 1 s after the failed delivery, on the engine's (virtual) clock: move it
      // on until the second delivery arrives.
      long end = System.nanoTime() + Duration.ofSeconds(20).toNanos();
      int step = 1;
      while (!delivered.await(10, TimeUnit.MILLISECONDS)) {
        h.runUntil(Harness.T0.plusSeconds(1 + step++));
        assertThat(System.nanoTime()).as("the webhook's retry arrives").isLessThan(end);
      }
      assertThat(bodies).hasSize(2);
      assertThat(bodies.get(1)).isEqualTo(bodies.get(0));
      com.fasterxml.jackson.databind.JsonNode doc = JSON.readTree(bodies.get(1));
      assertThat(doc.path("event").asText()).isEqualTo("escalated");
      assertThat(doc.path("escalation").path("id").asText()).isEqualTo("E-1");
      assertThat(doc.path("escalation").path("dossier").path("body").path("top_level_fields").get(0).asText()).isEqualTo("name");
      assertThat(signatures.get(1)).isEqualTo(dev.sluice.core.internal.EscalationWebhook.signature(hookSecret, bodies.get(1)));
      String text = new String(bodies.get(1), StandardCharsets.UTF_8);
      assertThat(text).doesNotContain(hookSecret).doesNotContain(Harness.SECRET).doesNotContain("ada\"");
    } finally {
      server.stop(0);
    }
  }

  @Test
  void aWaitPastTheTasksDeadlineIsEscalatedAndOnlyCancelIsOffered() throws Exception {
    FakeProvider.Builder fake = FakeProvider.builder().fault(FaultRule.of(Fault.rateLimited(Duration.ofSeconds(60))).method("GET"));
    try (SqliteJournal journal = SqliteJournal.open(dir); Harness h = Harness.virtualTime(fake, INVOICES_AND_TRANSFERS, journal, b -> b)) {
      Submission s = h.sluice.start(Call.builder(Harness.PROVIDER, "GET", "/v1/invoices/inv_3").task("quarter-close")
          .deadline(Harness.T0.plusSeconds(30)).build());
      h.runUntil(Harness.T0.plusSeconds(120));
      Outcome o = s.outcome().get(20, TimeUnit.SECONDS);

      assertThat(o.outcome()).isEqualTo(OutcomeCode.DEADLINE_EXCEEDED);
      assertThat(h.fake.attempts()).hasSize(1);
      assertThat(h.sluice.escalations()).singleElement().satisfies(e -> {
        assertThat(e.trigger()).isEqualTo(Trigger.DEADLINE_EXCEEDED);
        assertThat(e.dossier().budget().deadline()).contains(Harness.T0.plusSeconds(30));
        assertThat(e.options()).extracting(Option::option).containsExactly(DecisionOption.CANCEL);
      });
    }
  }

  @Test
  void aSpentDailyQuotaIsEscalatedWithItsResetInTheDossier() throws Exception {
    String yaml = """
        quota_exhausted:
          - {status: 429, json_pointer: /error/code, equals: insufficient_quota, reset: daily}
        routes:
          - {method: GET, path: "/v1/invoices/{id}", class: read}
        """;
    FakeProvider.Builder fake = FakeProvider.builder().dailyQuota(dev.sluice.fake.DailyQuota.of(1));
    try (SqliteJournal journal = SqliteJournal.open(dir); Harness h = Harness.virtualTime(fake, yaml, journal, b -> b)) {
      Submission a = h.sluice.start(Call.builder(Harness.PROVIDER, "GET", "/v1/invoices/inv_1").task("a").build());
      h.runUntil(h.now().plusSeconds(1));
      Submission b = h.sluice.start(Call.builder(Harness.PROVIDER, "GET", "/v1/invoices/inv_1").task("b").build());
      h.runUntil(h.now().plusSeconds(10));

      assertThat(a.outcome().get(20, TimeUnit.SECONDS).outcome()).isEqualTo(OutcomeCode.SUCCEEDED);
      Outcome o = b.outcome().get(20, TimeUnit.SECONDS);
      assertThat(o.outcome()).isEqualTo(OutcomeCode.QUOTA_EXHAUSTED);
      assertThat(o.reason()).contains("escalated to an operator as E-1");
      assertThat(h.fake.attempts()).extracting(Attempt::status).containsExactly(200, 429);
      assertThat(h.sluice.escalations()).singleElement().satisfies(e -> {
        assertThat(e.trigger()).isEqualTo(Trigger.QUOTA_EXHAUSTED);
        assertThat(e.dossier().taskId()).isEqualTo("b");
        assertThat(e.dossier().attempts().get(0).rateLimitHeaders()).containsKey("retry-after");
        assertThat(e.options()).extracting(Option::option).containsExactly(DecisionOption.RETRY_SAME_KEY, DecisionOption.CANCEL);
      });
      assertThat(h.sluice.action(b.actionId().orElseThrow()).orElseThrow().state()).isEqualTo(ActionState.ESCALATED);
    }
  }

  @Test
  void aCircuitOpenedOnAWritePathIsEscalatedOnceAndTheStoppedCallNeverLeaves() throws Exception {
    String yaml = """
        idempotency_header: Idempotency-Key
        routes:
          - {method: POST, path: "/v1/nowhere", class: idempotent_write}
        """;
    try (SqliteJournal journal = SqliteJournal.open(dir); Harness h = Harness.virtualTime(FakeProvider.builder(), yaml, journal, b -> b)) {
      List<Outcome> outcomes = new java.util.ArrayList<>();
      for (int i = 0; i < 5; i++) {
        Submission s = h.sluice.start(Call.builder(Harness.PROVIDER, "POST", "/v1/nowhere").task("looper")
            .header("Content-Type", "application/json").body("{\"x\":1}").build());
        h.runUntil(h.now().plusSeconds(1));
        outcomes.add(s.outcome().get(20, TimeUnit.SECONDS));
      }

      assertThat(outcomes).extracting(Outcome::outcome).containsExactly(OutcomeCode.CLIENT_ERROR, OutcomeCode.CLIENT_ERROR,
          OutcomeCode.CLIENT_ERROR, OutcomeCode.CIRCUIT_OPEN, OutcomeCode.CIRCUIT_OPEN);
      assertThat(h.fake.attempts()).as("the open circuit sent nothing more").hasSize(3);
      assertThat(h.sluice.escalations()).as("once per task while open").singleElement().satisfies(e -> {
        assertThat(e.trigger()).isEqualTo(Trigger.CIRCUIT_OPEN_WRITE);
        assertThat(e.dossier().attempts()).isEmpty();
        assertThat(e.options()).extracting(Option::option).containsExactly(DecisionOption.RETRY_SAME_KEY, DecisionOption.CANCEL);
      });
      assertThat(outcomes.get(3).reason()).contains("escalated to an operator as E-1");
      assertThat(outcomes.get(4).reason()).doesNotContain("escalated");
    }
  }

  @Test
  void aFullScopeQueueIsEscalatedOncePerScopeAndTheRefusedReadsSendNothingUntilTheDecision() throws Exception {
    // One delayed request at most on the scope; the first read's 429 fills it.
    String yaml = """
        shared_scope: {max_delayed_requests: 1, max_concurrent_requests: 1}
        routes:
          - {method: GET, path: "/v1/invoices/{id}", class: read}
        """;
    FakeProvider.Builder fake = FakeProvider.builder().fault(FaultRule.of(Fault.rateLimited(Duration.ofSeconds(30))).method("GET").nth(1));
    try (SqliteJournal journal = SqliteJournal.open(dir); Harness h = Harness.virtualTime(fake, yaml, journal, b -> b)) {
      Submission first = h.sluice.start(Call.builder(Harness.PROVIDER, "GET", "/v1/invoices/inv_1").task("a").build());
      h.runUntil(Harness.T0.plusSeconds(1));
      assertThat(h.fake.attempts()).extracting(Attempt::status).containsExactly(429);
      Submission b = h.sluice.start(Call.builder(Harness.PROVIDER, "GET", "/v1/invoices/inv_2").task("b").goal("close the books").build());
      Submission c = h.sluice.start(Call.builder(Harness.PROVIDER, "GET", "/v1/invoices/inv_3").task("c").build());
      h.runUntil(Harness.T0.plusSeconds(2));

      Outcome ob = b.outcome().get(20, TimeUnit.SECONDS);
      Outcome oc = c.outcome().get(20, TimeUnit.SECONDS);
      assertThat(ob.outcome()).isEqualTo(OutcomeCode.SCOPE_BACKPRESSURE);
      assertThat(ob.reason()).contains("escalated to an operator as E-1");
      assertThat(oc.outcome()).isEqualTo(OutcomeCode.SCOPE_BACKPRESSURE);
      assertThat(oc.reason()).as("the scope's escalation is open: not raised again").doesNotContain("escalated");
      assertThat(h.sluice.escalations()).as("once per scope while open").singleElement().satisfies(e -> {
        assertThat(e.trigger()).isEqualTo(Trigger.SCOPE_EXHAUSTED);
        assertThat(e.dossier().taskId()).isEqualTo("b");
        assertThat(e.dossier().goal()).contains("close the books");
        assertThat(e.dossier().attempts()).as("nothing of b was sent").isEmpty();
        assertThat(e.options()).extracting(Option::option).containsExactly(DecisionOption.RETRY_SAME_KEY, DecisionOption.CANCEL);
      });
      assertThat(h.sluice.action(c.actionId().orElseThrow()).orElseThrow().state()).as("not escalated: failed as before")
          .isEqualTo(ActionState.FAILED);

      h.runUntil(Harness.T0.plusSeconds(60));
      assertThat(first.outcome().get(20, TimeUnit.SECONDS).outcome()).isEqualTo(OutcomeCode.SUCCEEDED);
      assertThat(h.fake.attempts()).as("b and c sent nothing").extracting(a -> a.task().orElse("?") + " " + a.status())
          .containsExactly("a 429", "a 200");

      // The decision is carried out: exactly one GET for b, now that the queue has drained.
      DecisionResult r = h.sluice.decide(escalationIdOf(h), DecisionRequest.of(DecisionOption.RETRY_SAME_KEY, "ops-ana", "the queue drained"));
      h.runUntil(Harness.T0.plusSeconds(120));
      assertThat(r.outcome().orElseThrow().get(20, TimeUnit.SECONDS).outcome()).isEqualTo(OutcomeCode.SUCCEEDED);
      assertThat(h.fake.attempts()).extracting(a -> a.task().orElse("?") + " " + a.status()).containsExactly("a 429", "a 200", "b 200");

      // Decided, the scope's de-duplication is released: the next full queue is a new escalation.
      h.fake.addFault(FaultRule.of(Fault.rateLimited(Duration.ofSeconds(30))).method("GET").times(1));
      Submission d = h.sluice.start(Call.builder(Harness.PROVIDER, "GET", "/v1/invoices/inv_4").task("d").build());
      h.runUntil(Harness.T0.plusSeconds(121));
      Submission e2 = h.sluice.start(Call.builder(Harness.PROVIDER, "GET", "/v1/invoices/inv_5").task("e").build());
      h.runUntil(Harness.T0.plusSeconds(122));
      assertThat(e2.outcome().get(20, TimeUnit.SECONDS).reason()).contains("escalated to an operator as E-2");
      assertThat(h.sluice.escalations()).extracting(x -> x.trigger()).containsExactly(Trigger.SCOPE_EXHAUSTED, Trigger.SCOPE_EXHAUSTED);
      assertThat(d.outcome()).isNotDone();
    }
  }

  private static dev.sluice.core.escalation.EscalationId escalationIdOf(Harness h) {
    return h.sluice.escalations().get(0).id();
  }

  @Test
  void aSpentTaskAttemptBudgetIsLabelledTaskBudgetExhaustedAndOnlyCancelIsOfferedNotTheClassesTimeBudget() throws Exception {
    // The labels are decided from the engine's own reasons (BudgetTest checks the engine writes the
    // task-budget words on both of its paths); the action is a real journaled one.
    try (SqliteJournal journal = SqliteJournal.open(dir); Harness h = Harness.virtualTime(FakeProvider.builder(), INVOICES_AND_TRANSFERS, journal, b -> b)) {
      Submission s = h.sluice.start(Call.builder(Harness.PROVIDER, "GET", "/v1/invoices/inv_1").task("t").build());
      h.runUntil(Harness.T0.plusSeconds(1));
      s.outcome().get(20, TimeUnit.SECONDS);
      dev.sluice.core.journal.ActionId id = s.actionId().orElseThrow();
      dev.sluice.core.internal.Escalations esc = new dev.sluice.core.internal.Escalations(Harness.policy(h.fake, INVOICES_AND_TRANSFERS), journal,
          () -> Harness.T0, x -> java.util.Optional.empty(), java.util.Optional.empty());

      String taskSpent = "503 Service Unavailable; but task t has used all 3 " + dev.sluice.core.engine.Engine.TASK_ATTEMPT_BUDGET_SPENT;
      assertThat(esc.triggerFor(id, OutcomeCode.BUDGET_EXHAUSTED, taskSpent)).contains(Trigger.TASK_BUDGET_EXHAUSTED);
      assertThat(esc.triggerFor(id, OutcomeCode.BUDGET_EXHAUSTED, "the wait would pass max_wait (90 s)")).contains(Trigger.WAIT_BUDGET_EXHAUSTED);
      Escalation e = esc.raise(id, Trigger.TASK_BUDGET_EXHAUSTED, taskSpent).orElseThrow();
      assertThat(e.trigger().code()).isEqualTo("task_budget_exhausted");
      assertThat(e.options()).extracting(Option::option).containsExactly(DecisionOption.CANCEL);
      assertThat(esc.triggerFor(id, OutcomeCode.BUDGET_EXHAUSTED, taskSpent)).as("once per task while open").isEmpty();
    }
  }

  @Test
  void seedStep5TheTimeBudgetIsExhaustedTheOperatorGetsTheDossierAndTheCancelledWorkNeverWakes() throws Exception {
    // Retry-After 100 s is past the read class's 90 s budget: the read stops at once, for a person.
    FakeProvider.Builder fake = FakeProvider.builder()
        .fault(FaultRule.of(Fault.rateLimited(Duration.ofSeconds(100))).method("GET").path("/v1/invoices/{id}"));
    try (SqliteJournal journal = SqliteJournal.open(dir);
        Harness h = Harness.virtualTime(fake, INVOICES_AND_TRANSFERS, journal, b -> b)) {
      Submission read = h.sluice.start(Call.builder(Harness.PROVIDER, "GET", "/v1/invoices/inv_9").task("nightly-sync")
          .goal("reconcile last night's invoices").build());
      Submission write = h.sluice.start(Call.builder(Harness.PROVIDER, "POST", "/v1/transfers").task("nightly-sync")
          .header("Content-Type", "application/json").body("{\"amount\":12500,\"currency\":\"USD\"}").build());
      Submission other = h.sluice.start(Call.builder(Harness.PROVIDER, "POST", "/v1/transfers").task("payroll")
          .header("Content-Type", "application/json").body("{\"amount\":900,\"currency\":\"USD\"}").build());
      h.runUntil(Harness.T0.plusSeconds(10));

      Outcome o = read.outcome().get(20, TimeUnit.SECONDS);
      assertThat(o.outcome()).isEqualTo(OutcomeCode.BUDGET_EXHAUSTED);
      assertThat(o.reason()).contains("escalated to an operator as E-1");
      assertThat(h.fake.attempts()).hasSize(1);
      // The task's write waits behind the scope's hold, due after the 100 s the provider asked for.
      assertThat(h.sluice.queue(Harness.PROVIDER)).extracting(q -> q.taskId()).containsExactlyInAnyOrder("nightly-sync", "payroll");
      java.time.Instant due = h.sluice.queue(Harness.PROVIDER).stream().filter(q -> q.taskId().equals("nightly-sync")).findFirst().orElseThrow().dueAt();
      assertThat(due).isAfterOrEqualTo(Harness.T0.plusSeconds(100));

      Escalation e = h.sluice.escalations().get(0);
      assertThat(e.trigger()).isEqualTo(Trigger.WAIT_BUDGET_EXHAUSTED);
      assertThat(e.dossier().goal()).contains("reconcile last night's invoices");
      assertThat(e.dossier().attempts()).singleElement().satisfies(a -> {
        assertThat(a.status()).hasValue(429);
        assertThat(a.rateLimitHeaders()).containsEntry("retry-after", List.of("100"));
      });
      assertThat(e.dossier().budget().maxWait()).isEqualTo(Duration.ofSeconds(90));
      assertThat(e.options()).extracting(Option::option).containsExactly(DecisionOption.RETRY_SAME_KEY, DecisionOption.CANCEL);
      assertSecretFree(e);

      h.sluice.decide(e.id(), DecisionRequest.of(DecisionOption.CANCEL, "ops-ana", "the sync can wait for tonight"));
      assertThat(write.outcome().get(20, TimeUnit.SECONDS).outcome()).isEqualTo(OutcomeCode.CANCELLED);
      h.runUntil(due.plusSeconds(120));

      assertThat(h.fake.attempts()).as("the cancelled task's write never woke; the other task's did").extracting(a -> a.method() + " "
          + a.task().orElse("?")).containsExactly("GET nightly-sync", "POST payroll");
      assertThat(other.outcome().get(20, TimeUnit.SECONDS).outcome()).isEqualTo(OutcomeCode.SUCCEEDED);
      assertThat(h.sluice.action(write.actionId().orElseThrow()).orElseThrow().state()).isEqualTo(ActionState.CANCELLED);
      assertThat(h.sluice.action(read.actionId().orElseThrow()).orElseThrow().state()).isEqualTo(ActionState.CANCELLED);
      assertThat(h.sluice.escalation(e.id()).orElseThrow().decision().orElseThrow().option()).isEqualTo(DecisionOption.CANCEL);
    }
  }
}
