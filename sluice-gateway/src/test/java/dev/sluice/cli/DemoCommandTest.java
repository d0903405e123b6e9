package dev.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
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
    assertThat(steps).hasSize(3);
    for (int i = 0; i < 3; i++) {
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
        .contains("The provider received 4 requests (3 x 200, 1 x 429); none while the scope was held")
        .contains("not one burst");
    assertThat(run.out()).doesNotContain("demo-secret");
  }

  @Test
  void helpSaysWhatItPlaysAndThatTheStoreIsNotUsedYet() {
    CliRun run = CliRun.of("demo", "--help");
    assertThat(run.exit()).isZero();
    assertThat(run.out()).contains("--retry-after", "--json", "429 Retry-After", "embedded store", "in memory");
    assertThat(CliRun.of("--help").out()).contains("demo");
  }

  @Test
  void aRetryAfterOutsideOneToSixtyIsOneLineAndExit2() {
    CliRun run = CliRun.of("demo", "--retry-after", "0");
    assertThat(run.exit()).isEqualTo(2);
    assertThat(run.err().strip().lines()).hasSize(1).first().asString().startsWith("sluice demo: --retry-after");
  }
}
