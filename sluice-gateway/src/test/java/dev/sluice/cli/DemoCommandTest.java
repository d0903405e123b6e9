package dev.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.core.engine.Outcome;
import dev.sluice.core.engine.OutcomeCode;
import dev.sluice.fake.Attempt;
import dev.sluice.fake.StoredRecord;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** {@code sluice demo}, end to end: the real command line, a real fake provider, the wall clock, a 1 s Retry-After. */
class DemoCommandTest {
  static final Pattern RFC3339_MILLIS = Pattern.compile("\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z");

  @Test
  void jsonIsOneObjectWhoseStepsShowTheProvidersOwnLogAndTheAgentsOutcomes() throws Exception {
    CliRun run = CliRun.of("demo", "--retry-after", "1", "--json");
    assertThat(run.exit()).as(run.err()).isZero();
    assertThat(run.out().strip().lines()).as("exactly one line: one JSON object").hasSize(1);
    JsonNode steps = new ObjectMapper().readTree(run.out()).get("steps");
    assertThat(steps).hasSize(5);
    for (int i = 0; i < 4; i++) {
      assertThat(steps.get(i).get("step").asInt()).isEqualTo(i + 1);
      assertThat(steps.get(i).get("title").asText()).isNotBlank();
      for (JsonNode a : steps.get(i).get("attempts")) {
        assertThat(a.get("at").asText()).matches(RFC3339_MILLIS);
        assertThat(a.fieldNames()).toIterable().contains("task", "method", "path", "scope", "status", "idempotency_key");
      }
    }
    // Step 1: one request reached the provider and was answered 429.
    JsonNode first = steps.get(0).get("attempts");
    assertThat(first).hasSize(1);
    assertThat(first.get(0).get("status").asInt()).isEqualTo(429);
    assertThat(steps.get(0).get("calls")).hasSize(3);
    // Step 2: nothing reached the provider while the scope was held.
    assertThat(steps.get(1).get("attempts")).isEmpty();
    assertThat(steps.get(1).get("title").asText()).contains("Retry-After: 1");
    assertThat(steps.get(1).get("scope").get("source").asText()).isEqualTo("HTTP 429 Retry-After");
    // Step 3: three successes, each at least 1 s after the 429 arrived, at distinct instants.
    Instant refused = Instant.parse(first.get(0).get("at").asText());
    List<Instant> later = new ArrayList<>();
    for (JsonNode a : steps.get(2).get("attempts")) {
      assertThat(a.get("status").asInt()).isEqualTo(200);
      later.add(Instant.parse(a.get("at").asText()));
    }
    assertThat(later).hasSize(3).doesNotHaveDuplicates().allSatisfy(t -> assertThat(t).isAfterOrEqualTo(refused.plus(Duration.ofSeconds(1))));
    JsonNode outcomes = steps.get(2).get("outcomes");
    assertThat(outcomes).hasSize(3);
    int attempts = 0;
    for (JsonNode o : outcomes) {
      assertThat(o.get("outcome").asText()).isEqualTo("succeeded");
      assertThat(o.get("waited_seconds").asDouble()).isGreaterThan(0.9);
      attempts += o.get("attempts").asInt();
    }
    assertThat(attempts).as("what the agents were told equals what the provider received").isEqualTo(4);
  }

  @Test
  void theTimelineSaysWhoSentWhatWhoWaitedAndWhyThenTheTable() {
    CliRun run = CliRun.of("demo", "--retry-after", "1");
    assertThat(run.exit()).as(run.err()).isZero();
    assertThat(run.out())
        .contains("429 Too Many Requests, Retry-After: 1")
        .contains("held until")
        .contains("held by the scope, not by an error of its own")
        .contains("its retry (attempt 2)")
        .containsPattern("task-\\d\\s+succeeded\\s+2\\s")
        .contains("the provider received 4 requests (3 x 200, 1 x 429); none while the scope was held")
        .contains("not one burst");
    assertThat(run.out()).doesNotContain("demo-secret");
  }

  @Test
  void jsonStep5HasTheRedactedDossierTheCancelDecisionAndNoRequestAfterTheCancelledWritesDueTime() throws Exception {
    CliRun run = CliRun.of("demo", "--retry-after", "1", "--json");
    assertThat(run.exit()).as(run.err()).isZero();
    JsonNode step = new ObjectMapper().readTree(run.out()).get("steps").get(4);
    assertThat(step.get("step").asInt()).isEqualTo(5);
    // The provider received exactly the one read that met the 429, from the escalated task: the
    // transfer the task queued behind the hold never left, though the log was read after its due time.
    assertThat(step.get("attempts")).singleElement().satisfies(a -> {
      assertThat(a.get("task").asText()).isEqualTo("task-5");
      assertThat(a.get("method").asText()).isEqualTo("GET");
      assertThat(a.get("status").asInt()).isEqualTo(429);
    });
    assertThat(Instant.parse(step.get("checked_at").asText())).isAfter(Instant.parse(step.get("cancelled_due_at").asText()));
    assertThat(step.get("outcomes")).extracting(o -> o.get("outcome").asText()).containsExactly("budget_exhausted", "cancelled");
    JsonNode e = step.get("escalations").get(0);
    assertThat(e.get("trigger").asText()).isEqualTo("wait_budget_exhausted");
    assertThat(e.get("state").asText()).isEqualTo("decided");
    assertThat(e.get("decision").get("option").asText()).isEqualTo("cancel");
    JsonNode d = e.get("dossier");
    assertThat(d.get("goal").asText()).isEqualTo("publish the monthly revenue report");
    assertThat(d.get("endpoint").asText()).isEqualTo("/v1/reports/{id}");
    assertThat(d.get("attempts").get(0).get("headers").get("retry-after").get(0).asText()).isEqualTo("6");
    assertThat(d.get("budget").get("max_wait_seconds").asInt()).isEqualTo(3);
    assertThat(d.has("body")).isTrue();
    assertThat(run.out()).doesNotContain("demo-secret");
  }

  @Test
  void jsonStep4ShowsOneTransferOneKeyAndASuccessEstablishedByTheLookUp() throws Exception {
    CliRun run = CliRun.of("demo", "--retry-after", "1", "--json");
    assertThat(run.exit()).as(run.err()).isZero();
    JsonNode step = new ObjectMapper().readTree(run.out()).get("steps").get(3);
    assertThat(step.get("step").asInt()).isEqualTo(4);
    assertThat(step.get("title").asText()).containsIgnoringCase("idempotency key");

    List<JsonNode> posts = new ArrayList<>();
    List<JsonNode> lookUps = new ArrayList<>();
    for (JsonNode a : step.get("attempts")) {
      assertThat(a.get("path").asText()).isEqualTo("/v1/transfers");
      (a.get("method").asText().equals("POST") ? posts : lookUps).add(a);
    }
    // The provider saved the first POST and dropped the connection; nothing was resent.
    assertThat(posts).hasSize(1);
    assertThat(posts.get(0).get("result").asText()).isEqualTo("dropped");
    String key = posts.get(0).get("idempotency_key").asText();
    assertThat(key).isNotBlank();
    assertThat(posts).allSatisfy(a -> assertThat(a.get("idempotency_key").asText()).isEqualTo(key));
    // Sluice looked it up by that key.
    assertThat(lookUps).singleElement().satisfies(a -> {
      assertThat(a.get("method").asText()).isEqualTo("GET");
      assertThat(a.get("query").asText()).isEqualTo("idempotency_key=" + key);
      assertThat(a.get("status").asInt()).isEqualTo(200);
    });

    JsonNode records = step.get("records");
    assertThat(records).as("the provider holds exactly one transfer").hasSize(1);
    assertThat(records.get(0).get("id").asText()).isNotBlank();
    assertThat(records.get(0).get("idempotency_key").asText()).isEqualTo(key);
    assertThat(records.get(0).has("client_reference")).isTrue();

    JsonNode outcomes = step.get("outcomes");
    assertThat(outcomes).hasSize(1);
    assertThat(outcomes.get(0).get("task").asText()).isEqualTo("task-4");
    assertThat(outcomes.get(0).get("outcome").asText()).isEqualTo("succeeded");
    assertThat(outcomes.get(0).get("reconciled").asBoolean()).isTrue();
    assertThat(outcomes.get(0).get("attempts").asInt()).as("what the agent was told equals what the provider received")
        .isEqualTo(step.get("attempts").size());
  }

  @Test
  void theTimelineOfStep4SaysTheConnectionDroppedAfterTheSaveThenTheLookUpFoundIt() {
    CliRun run = CliRun.of("demo", "--retry-after", "1");
    assertThat(run.exit()).as(run.err()).isZero();
    assertThat(run.out())
        .contains("a real SQLite journal in a temporary directory, deleted at exit")
        .containsPattern("task-4\\s+-> provider: POST /v1/transfers, Idempotency-Key: \\S+ \\(attempt 1\\)")
        .contains("connection dropped after the provider saved it: outcome unknown")
        .contains("looks the transfer up by its idempotency key")
        .contains("found: reconciled, nothing resent")
        .containsPattern("task-4\\s+succeeded\\s+2\\s")
        .contains("The provider holds 1 transfer: ")
        .contains("it received 1 POST, every one with the same key.");
    assertThat(run.out()).doesNotContain("demo-secret");
  }

  @Test
  void aWriteThatIsNotReconciledOrExistsTwiceBreaksTheSeedsRules() {
    // The rule checker on hand-made step-4 results: the demo exits 1 on any of these.
    assertThat(writeProblems(2, true, List.of("k1", "k1"))).anyMatch(p -> p.contains("2 transfers"));
    assertThat(writeProblems(1, true, List.of("k1", "k2"))).anyMatch(p -> p.contains("same idempotency key"));
    assertThat(writeProblems(1, false, List.of("k1"))).anyMatch(p -> p.contains("no reconciliation"));
    assertThat(writeProblems(1, true, List.of("k1"))).isEmpty();
  }

  @Test
  void helpSaysWhatItPlaysAndThatTheJournalIsATemporarySqliteFile() {
    CliRun run = CliRun.of("demo", "--help");
    assertThat(run.exit()).isZero();
    assertThat(run.out()).contains("--retry-after", "--json", "429 Retry-After", "idempotency", "look", "embedded store",
        "SQLite journal in a", "temporary directory, deleted at exit");
    assertThat(run.out()).doesNotContain("in memory");
    assertThat(CliRun.of("--help").out()).contains("demo");
  }

  @Test
  void aRetryAfterOutsideOneToSixtyIsOneLineAndExit2() {
    CliRun run = CliRun.of("demo", "--retry-after", "0");
    assertThat(run.exit()).isEqualTo(2);
    assertThat(run.err().strip().lines()).hasSize(1).first().asString().startsWith("sluice demo: --retry-after");
  }

  /** {@link DemoCommand#writeProblems} on a step 4 with {@code records} transfers and one POST per key given. */
  private static List<String> writeProblems(int records, boolean reconciled, List<String> keys) {
    Instant t = Instant.parse("2026-03-01T09:00:00Z");
    List<Attempt> attempts = new ArrayList<>();
    for (String k : keys) {
      attempts.add(new Attempt(attempts.size() + 1, t, "POST", "/v1/transfers", "", "transfers", "account:demo", Optional.of(k),
          Optional.of("task-4"), 201, Attempt.Result.ANSWERED, List.of(), Optional.empty(), false));
    }
    List<StoredRecord> stored = new ArrayList<>();
    for (int i = 0; i < records; i++) {
      stored.add(new StoredRecord("tr_" + (i + 1), "transfers", Optional.empty(), t, t, "account:demo", Optional.of(keys.get(0)),
          Optional.empty(), "{}", false));
    }
    Outcome o = new Outcome("task-4", 1, OutcomeCode.SUCCEEDED, true, true, keys.size(), Duration.ZERO, OptionalInt.of(201),
        Optional.empty(), "none", "ok", Optional.empty(), Optional.empty(), false, t, reconciled);
    return DemoCommand.writeProblems(new DemoScenario.Write(t, attempts, o, stored));
  }
}
