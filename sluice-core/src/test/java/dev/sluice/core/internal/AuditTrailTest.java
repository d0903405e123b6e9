package dev.sluice.core.internal;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.core.audit.AuditLog;
import dev.sluice.core.audit.AuditSettings;
import dev.sluice.core.engine.ActionLog;
import dev.sluice.core.engine.OutcomeCode;
import dev.sluice.core.journal.ActionId;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AuditTrailTest {
  static final Instant T0 = Instant.parse("2026-01-01T14:11:02Z");

  @TempDir Path dir;

  List<JsonNode> records() throws Exception {
    List<JsonNode> out = new ArrayList<>();
    for (String l : Files.readAllLines(dir.resolve("audit-000001.log"))) {
      out.add(new ObjectMapper().readTree(l));
    }
    return out;
  }

  @Test
  void theEnginesReactionsBecomeTheirAuditEventsAndStillReachTheInnerLog() throws Exception {
    List<String> inner = new ArrayList<>();
    ActionLog journal = new ActionLog() {
      @Override
      public void reconciling(ActionId id, Instant dueAt, Duration waited) {
        inner.add("reconciling");
      }

      @Override
      public void finished(ActionId id, OutcomeCode code, String reason, OptionalInt lastStatus, Duration waited, Optional<String> op) {
        inner.add("finished " + code);
      }
    };
    ActionId a = ActionId.newId(T0);
    ActionId b = ActionId.newId(T0);
    try (AuditLog log = AuditLog.open(AuditSettings.in(dir), () -> T0)) {
      AuditTrail trail = new AuditTrail(log, journal, () -> T0);
      trail.reconciling(a, T0.plusSeconds(5), Duration.ZERO);
      trail.finished(a, OutcomeCode.RECONCILIATION_REQUIRED, "unknown", OptionalInt.of(504), Duration.ofSeconds(3), Optional.empty());
      // An escalation writes its own escalated record (Escalations); the action's end adds none.
      trail.finished(ActionId.newId(T0), OutcomeCode.ESCALATED, "for a person", OptionalInt.empty(), Duration.ZERO, Optional.empty());
      trail.finished(b, OutcomeCode.CANCELLED, "task t was cancelled", OptionalInt.empty(), Duration.ZERO, Optional.empty());
      trail.finished(b, OutcomeCode.SUCCEEDED, "ok", OptionalInt.of(200), Duration.ZERO, Optional.empty());
      trail.close();
    }

    assertThat(inner).containsExactly("reconciling", "finished RECONCILIATION_REQUIRED", "finished ESCALATED", "finished CANCELLED", "finished SUCCEEDED");
    List<JsonNode> r = records();
    assertThat(r).extracting(n -> n.path("event").asText()).containsExactly("reconciliation_required", "reconciliation_required", "cancelled");
    assertThat(r.get(0).path("due").asText()).isEqualTo(T0.plusSeconds(5).toString());
    assertThat(r.get(1).path("outcome").asText()).isEqualTo("reconciliation_required");
    assertThat(r.get(1).path("status").asInt()).isEqualTo(504);
    assertThat(r).allSatisfy(n -> assertThat(n.has("reason")).as("free-text reasons are not recorded").isFalse());
  }
}
