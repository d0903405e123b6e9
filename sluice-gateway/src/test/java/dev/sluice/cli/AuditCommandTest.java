package dev.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.core.audit.AuditKeys;
import dev.sluice.core.audit.AuditLog;
import dev.sluice.core.audit.AuditSettings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AuditCommandTest {
  static final Instant T0 = Instant.parse("2026-01-01T14:11:02Z");

  @TempDir Path tmp;

  Path writeLog(Path dir, AuditSettings s) {
    try (AuditLog log = AuditLog.open(s, () -> T0)) {
      for (int i = 1; i <= 4; i++) {
        log.append("action_sent", T0, Map.of("task", "sync-482", "attempt", i));
      }
    }
    return dir;
  }

  @Test
  void anIntactLogExitsZeroWithAOneLineSummary() {
    Path dir = writeLog(tmp.resolve("audit"), AuditSettings.in(tmp.resolve("audit")));

    CliRun r = CliRun.of("audit", "verify", dir.toString());

    assertThat(r.exit()).isZero();
    assertThat(r.out().strip()).startsWith("OK 4 records in 1 segment(s)").doesNotContain("\n");
  }

  @Test
  void aDeletedRecordExitsNonZeroNamingTheFirstBrokenRecordAndTheReason() throws Exception {
    Path dir = writeLog(tmp.resolve("audit"), AuditSettings.in(tmp.resolve("audit")));
    Path seg = dir.resolve("audit-000001.log");
    List<String> lines = Files.readAllLines(seg);
    Files.writeString(seg, String.join("\n", lines.get(0), lines.get(2), lines.get(3)) + "\n");

    CliRun r = CliRun.of("audit", "verify", dir.toString());

    assertThat(r.exit()).isEqualTo(1);
    assertThat(r.err()).contains("audit-000001.log:2").contains("seq 2").contains("missing");
  }

  @Test
  void keygenKeysSignCheckpointsThatVerifyWithThePublicKeyAndCatchACutTail() throws Exception {
    Path key = tmp.resolve("audit.key");
    assertThat(CliRun.of("audit", "keygen", "--out", key.toString()).exit()).isZero();
    Path dir = tmp.resolve("audit");
    writeLog(dir, AuditSettings.in(dir).withSigningKey(AuditKeys.readPrivate(key)).withCheckpointEvery(2));

    CliRun ok = CliRun.of("audit", "verify", dir.toString(), "--public-key", key + ".pub");
    assertThat(ok.exit()).as(ok.err()).isZero();
    assertThat(ok.out()).contains("with valid signatures");

    Path seg = dir.resolve("audit-000001.log");
    List<String> lines = Files.readAllLines(seg);
    Files.writeString(seg, String.join("\n", lines.subList(0, 3)) + "\n");
    CliRun cut = CliRun.of("audit", "verify", dir.toString(), "--public-key", key + ".pub");
    assertThat(cut.exit()).isEqualTo(1);
    assertThat(cut.err()).contains("truncated_after_checkpoint");
  }

  @Test
  void thePathDefaultsToTheDataDirOfTheConfig() throws Exception {
    Path data = tmp.resolve("data");
    writeLog(data.resolve("audit"), AuditSettings.in(data.resolve("audit")));
    Path config = tmp.resolve("sluice.yaml");
    Files.writeString(config, "data_dir: " + data + "\n");

    CliRun r = CliRun.of("audit", "verify", "--config", config.toString());

    assertThat(r.exit()).as(r.err()).isZero();
    assertThat(r.out()).startsWith("OK 4 records");
  }

  @Test
  void aMissingFolderIsAUsageError() {
    CliRun r = CliRun.of("audit", "verify", tmp.resolve("nowhere").toString());

    assertThat(r.exit()).isEqualTo(CliErrors.USAGE);
    assertThat(r.err()).contains("no audit log at");
  }
}
