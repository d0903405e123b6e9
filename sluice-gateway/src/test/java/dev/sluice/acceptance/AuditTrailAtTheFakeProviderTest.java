package dev.sluice.acceptance;

import static dev.sluice.acceptance.Harness.T0;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.core.Call;
import dev.sluice.core.audit.AuditLog;
import dev.sluice.core.audit.AuditSettings;
import dev.sluice.core.audit.AuditVerifier;
import dev.sluice.core.engine.Outcome;
import dev.sluice.core.engine.OutcomeCode;
import dev.sluice.fake.FakeProvider;
import dev.sluice.fake.Fault;
import dev.sluice.fake.FaultRule;
import dev.sluice.store.sqlite.SqliteJournal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The seed's audit example, end to end at the fake provider on virtual time: a write answered
 * {@code 429 Retry-After: 30}, then {@code 201} with an operation id, comes out of the audit log as
 * exactly action_requested, action_sent, action_result (429, retry_after 30, scope), retry_scheduled
 * (attempt 2, due 30 s later), action_sent (attempt 2, the same idempotency key), action_result
 * (201, provider_id) — and the log verifies, and holds no credential.
 */
class AuditTrailAtTheFakeProviderTest {
  static final String WRITE_ROUTE = """
      idempotency_header: Idempotency-Key
      routes:
        - {method: POST, path: "/v1/transfers", class: idempotent_write, operation_id: {header: Operation-Id},
           lookup: {method: GET, path: "/v1/transfers?idempotency_key={idempotency_key}"}}
      """;

  @TempDir Path dir;

  @Test
  @org.junit.jupiter.api.Timeout(60)
  void theSeedsRetryAfterSequenceIsRecordedExactly() throws Exception {
    Path auditDir = dir.resolve("audit");
    FakeProvider.Builder fake = FakeProvider.builder().fault(FaultRule.of(Fault.rateLimited(Duration.ofSeconds(30))).path("/v1/transfers").nth(1));
    AuditLog audit = AuditLog.open(AuditSettings.in(auditDir), () -> T0);
    Outcome outcome;
    try (SqliteJournal journal = SqliteJournal.open(dir.resolve("journal"));
        Harness h = Harness.virtualTime(fake, WRITE_ROUTE, journal, b -> b.audit(audit))) {
      CompletableFuture<Outcome> f = h.sluice.submit(Call.builder(Harness.PROVIDER, "POST", "/v1/transfers").task("sync-482")
          .idempotencyKey("rec-91f2").header("Content-Type", "application/json").body("{\"amount\":5}").build());
      // The journal hands each attempt to the transport on its own thread, after the engine
      // decided to send it: wait for each attempt to reach the fake before moving time on.
      awaitUntil(() -> h.fake.attempts().size() == 1, () -> h.runUntil(T0));
      h.settle();
      awaitUntil(() -> h.fake.attempts().size() == 2, () -> h.runUntil(T0.plusSeconds(60)));
      h.settle();
      awaitUntil(f::isDone, () -> h.runUntil(T0.plusSeconds(60)));
      outcome = f.get(10, java.util.concurrent.TimeUnit.SECONDS);
    }
    audit.close();
    assertThat(outcome.outcome()).isEqualTo(OutcomeCode.SUCCEEDED);

    List<JsonNode> records = read(auditDir);
    assertThat(records).extracting(r -> r.path("event").asText())
        .containsExactly("action_requested", "action_sent", "action_result", "retry_scheduled", "action_sent", "action_result");
    JsonNode requested = records.get(0), sent1 = records.get(1), limited = records.get(2), scheduled = records.get(3), sent2 = records.get(4),
        created = records.get(5);
    assertThat(requested.path("task").asText()).isEqualTo("sync-482");
    assertThat(requested.path("method").asText()).isEqualTo("POST");
    assertThat(requested.path("route").asText()).isEqualTo("/v1/transfers");
    assertThat(sent1.path("attempt").asInt()).isEqualTo(1);
    assertThat(sent1.path("idempotency").asText()).isEqualTo("rec-91f2");
    assertThat(limited.path("status").asInt()).isEqualTo(429);
    assertThat(limited.path("retry_after").asLong()).isEqualTo(30);
    assertThat(limited.path("scope").asText()).isEqualTo("account:acme");
    assertThat(scheduled.path("attempt").asInt()).isEqualTo(2);
    assertThat(scheduled.path("budget_wait").asLong()).isEqualTo(30);
    assertThat(java.time.Instant.parse(scheduled.path("due").asText())).isEqualTo(java.time.Instant.parse(limited.path("at").asText()).plusSeconds(30));
    assertThat(sent2.path("attempt").asInt()).isEqualTo(2);
    assertThat(sent2.path("idempotency").asText()).isEqualTo("rec-91f2");
    assertThat(java.time.Instant.parse(sent2.path("at").asText())).isAfterOrEqualTo(java.time.Instant.parse(scheduled.path("due").asText()));
    assertThat(created.path("status").asInt()).isEqualTo(201);
    assertThat(created.path("provider_id").asText()).startsWith("op_");
    assertThat(records).allSatisfy(r -> assertThat(r.path("action").asText()).isEqualTo(requested.path("action").asText()));

    assertThat(AuditVerifier.verify(auditDir).intact()).isTrue();
    try (Stream<Path> files = Files.list(auditDir)) {
      for (Path p : files.toList()) {
        assertThat(Files.readString(p, StandardCharsets.UTF_8)).doesNotContain(Harness.SECRET).doesNotContain("amount");
      }
    }
  }

  /**
   * The seed's "if the second answer had timed out, the next event would be reconciliation_required,
   * not another action_sent automatically" — carried on to the person: the look-up fails its budget,
   * the action stops (reconciliation_required, outcome), one escalation is one {@code escalated}
   * record, the operator's choice is {@code decision_recorded}, and only then is the look-up due
   * (reconciliation_required, due) and sent again.
   */
  @Test
  @org.junit.jupiter.api.Timeout(60)
  void theSeedsTimedOutSecondAnswerIsReconciliationRequiredThenOneEscalatedThenTheDecision() throws Exception {
    Path auditDir = dir.resolve("audit");
    FakeProvider.Builder fake = FakeProvider.builder()
        .fault(FaultRule.of(Fault.rateLimited(Duration.ofSeconds(30))).method("POST").nth(1))
        .fault(FaultRule.of(Fault.dropAfterCommit()).method("POST").nth(2))
        .fault(FaultRule.of(Fault.unavailable(100)).method("GET").times(1));
    AuditLog audit = AuditLog.open(AuditSettings.in(auditDir), () -> T0);
    try (SqliteJournal journal = SqliteJournal.open(dir.resolve("journal"));
        Harness h = Harness.virtualTime(fake, WRITE_ROUTE, journal, b -> b.audit(audit))) {
      CompletableFuture<Outcome> f = h.sluice.submit(Call.builder(Harness.PROVIDER, "POST", "/v1/transfers").task("sync-482")
          .idempotencyKey("rec-91f2").header("Content-Type", "application/json").body("{\"amount\":5}").build());
      awaitUntil(() -> h.fake.attempts().size() == 1, () -> h.runUntil(T0));
      h.settle();
      awaitUntil(f::isDone, () -> h.runUntil(T0.plusSeconds(60)));
      assertThat(f.get(10, java.util.concurrent.TimeUnit.SECONDS).outcome()).isEqualTo(OutcomeCode.RECONCILIATION_REQUIRED);
      dev.sluice.core.escalation.Escalation e = h.sluice.escalations().get(0);
      dev.sluice.core.escalation.DecisionResult r = h.sluice.decide(e.id(), dev.sluice.core.escalation.DecisionRequest.of(
          dev.sluice.core.escalation.DecisionOption.QUERY_EXISTING, "ops-ana", "the provider is back"));
      CompletableFuture<Outcome> found = r.outcome().orElseThrow();
      awaitUntil(found::isDone, () -> h.runUntil(T0.plusSeconds(120)));
      assertThat(found.get(10, java.util.concurrent.TimeUnit.SECONDS).outcome()).isEqualTo(OutcomeCode.SUCCEEDED);
      assertThat(h.fake.attempts()).extracting(a -> a.method() + " " + a.status()).containsExactly("POST 429", "POST 201", "GET 503", "GET 200");
    }
    audit.close();

    List<JsonNode> records = read(auditDir);
    assertThat(records).extracting(x -> x.path("event").asText()).containsExactly("action_requested", "action_sent", "action_result",
        "retry_scheduled", "action_sent", "action_result", "reconciliation_required", "reconciliation_lookup_sent", "action_result",
        "reconciliation_required", "escalated", "decision_recorded", "reconciliation_required", "reconciliation_lookup_sent", "action_result");
    assertThat(records.get(5).path("failure").asText()).as("the second answer was lost").isNotEmpty();
    assertThat(records.get(6).has("due")).isTrue();
    assertThat(records.get(9).path("outcome").asText()).isEqualTo("reconciliation_required");
    JsonNode escalated = records.get(10);
    assertThat(escalated.path("escalation").asText()).isEqualTo("E-1");
    assertThat(escalated.path("trigger").asText()).isEqualTo("uncertain_write");
    assertThat(escalated.path("idempotency").asText()).isEqualTo("rec-91f2");
    assertThat(escalated.path("options").asText()).contains("query_existing");
    assertThat(records.get(11).path("option").asText()).isEqualTo("query_existing");
    assertThat(records.get(11).path("by").asText()).isEqualTo("ops-ana");
    assertThat(records.get(12).has("due")).as("the decided look-up is due").isTrue();
    assertThat(records.get(14).path("status").asInt()).isEqualTo(200);
    assertThat(AuditVerifier.verify(auditDir).intact()).isTrue();
  }

  /** Polls a condition that another thread makes true (bounded: fails after 10 s of real time). */
  private static void awaitUntil(java.util.function.BooleanSupplier condition, Runnable nudge) throws InterruptedException {
    long end = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    while (!condition.getAsBoolean()) {
      nudge.run();
      assertThat(System.nanoTime()).as("condition not met within 10 s").isLessThan(end);
      Thread.sleep(5);
    }
  }

  private static List<JsonNode> read(Path auditDir) throws Exception {
    ObjectMapper json = new ObjectMapper();
    List<JsonNode> out = new ArrayList<>();
    for (String line : Files.readAllLines(auditDir.resolve("audit-000001.log"))) {
      out.add(json.readTree(line));
    }
    return out;
  }
}
