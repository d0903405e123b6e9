package dev.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.core.audit.AuditCipher;
import dev.sluice.core.audit.AuditKeys;
import dev.sluice.core.audit.AuditLog;
import dev.sluice.core.audit.AuditPruner;
import dev.sluice.core.audit.AuditSettings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code sluice audit tail | show | prune | keygen --encryption} on real log files. */
class AuditReadingCommandsTest {
  static final Instant T0 = Instant.parse("2026-01-01T14:11:02Z");
  static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path tmp;

  Path encryptionKey() {
    Path key = tmp.resolve("audit-enc.key");
    CliRun r = CliRun.of("audit", "keygen", "--encryption", "--out", key.toString());
    assertThat(r.exit()).as(r.err()).isZero();
    assertThat(r.out()).contains("key id: ");
    return key;
  }

  Path writeLog(AuditSettings s) {
    try (AuditLog log = AuditLog.open(s, () -> T0)) {
      log.append("action_requested", T0, Map.of("task", "sync-482", "action", "A1", "method", "POST"));
      log.append("action_sent", T0, Map.of("task", "sync-482", "action", "A1", "attempt", 1, "idempotency", "rec-91f2"));
      log.append("action_requested", T0, Map.of("task", "other", "action", "B1", "method", "GET"));
      log.append("action_result", T0, Map.of("task", "sync-482", "action", "A1", "attempt", 1, "status", 201));
    }
    return s.dir();
  }

  @Test
  void tailPrintsTheLastRecordsDecryptedWithTheKey() throws Exception {
    Path key = encryptionKey();
    Path dir = writeLog(AuditSettings.in(tmp.resolve("audit")).withEncryption(AuditCipher.read(key)));
    assertThat(Files.readString(dir.resolve("audit-000001.log"))).doesNotContain("rec-91f2");

    CliRun r = CliRun.of("audit", "tail", "-n", "2", dir.toString(), "--key", key.toString());

    assertThat(r.exit()).as(r.err()).isZero();
    List<String> lines = r.out().lines().toList();
    assertThat(lines).hasSize(2);
    assertThat(lines.get(0)).contains("action_requested").contains("task=other");
    assertThat(lines.get(1)).contains("action_result").contains("status=201").doesNotContain("encrypted");
  }

  @Test
  void withoutTheKeyRecordsAreListedAndSayEncrypted() throws Exception {
    Path key = encryptionKey();
    AuditCipher cipher = AuditCipher.read(key);
    Path dir = writeLog(AuditSettings.in(tmp.resolve("audit")).withEncryption(cipher));

    CliRun r = CliRun.of("audit", "show", dir.toString(), "--task", "sync-482");

    assertThat(r.exit()).as(r.err()).isZero();
    assertThat(r.out().lines()).hasSize(3).allSatisfy(l -> assertThat(l)
        .contains("[encrypted: encrypted with key " + cipher.keyId() + "; no decryption key given]").doesNotContain("rec-91f2"));
  }

  @Test
  void aWrongKeyIsNamedByItsIdAndTheRecordsKeyId() throws Exception {
    Path key = encryptionKey();
    Path dir = writeLog(AuditSettings.in(tmp.resolve("audit")).withEncryption(AuditCipher.read(key)));
    Path other = tmp.resolve("other.key");
    CliRun.of("audit", "keygen", "--encryption", "--out", other.toString());

    CliRun r = CliRun.of("audit", "tail", dir.toString(), "--key", other.toString());

    assertThat(r.out()).contains("the key(s) given have id " + AuditCipher.read(other).keyId());
    CliRun bad = CliRun.of("audit", "tail", dir.toString(), "--key", tmp.resolve("missing.key").toString());
    assertThat(bad.exit()).isEqualTo(2);
    assertThat(bad.err()).contains("--key").contains("cannot be read");
  }

  @Test
  void showByActionAsJsonGivesOneObjectPerRecord() throws Exception {
    Path key = encryptionKey();
    Path dir = writeLog(AuditSettings.in(tmp.resolve("audit")).withEncryption(AuditCipher.read(key)));

    CliRun r = CliRun.of("audit", "show", dir.toString(), "--action", "A1", "--json", "--key", key.toString());

    assertThat(r.exit()).as(r.err()).isZero();
    List<JsonNode> nodes = r.out().lines().map(l -> {
      try {
        return JSON.readTree(l);
      } catch (Exception e) {
        throw new AssertionError(l, e);
      }
    }).toList();
    assertThat(nodes).extracting(n -> n.path("event").asText()).containsExactly("action_requested", "action_sent", "action_result");
    assertThat(nodes.get(1).path("payload").asText()).isEqualTo("decrypted");
    assertThat(nodes.get(1).path("fields").path("idempotency").asText()).isEqualTo("rec-91f2");
    assertThat(nodes.get(1).path("seq").asLong()).isEqualTo(2);
  }

  @Test
  void showWithNeitherOrNoMatchSaysSo() throws Exception {
    Path dir = writeLog(AuditSettings.in(tmp.resolve("audit")));
    CliRun none = CliRun.of("audit", "show", dir.toString());
    assertThat(none.exit()).isEqualTo(2);
    assertThat(none.err()).contains("exactly one of --task T and --action A");
    CliRun nothing = CliRun.of("audit", "show", dir.toString(), "--task", "nope");
    assertThat(nothing.exit()).isEqualTo(1);
    assertThat(nothing.err()).contains("no records for task nope");
  }

  @Test
  void pruneKeepsTheNewestSegmentsLeavesASignedRecordAndVerifyStillPasses() throws Exception {
    Path signing = tmp.resolve("signing.key");
    assertThat(CliRun.of("audit", "keygen", "--out", signing.toString()).exit()).isZero();
    Path dir = tmp.resolve("audit");
    try (AuditLog log = AuditLog.open(AuditSettings.in(dir).withSigningKey(AuditKeys.readPrivate(signing)).withSegmentBytes(1024), () -> T0)) {
      for (int i = 0; i < 30; i++) {
        log.append("action_sent", T0, Map.of("task", "t" + i, "attempt", 1, "idempotency", "k".repeat(40)));
      }
    }

    CliRun noKey = CliRun.of("audit", "prune", dir.toString(), "--keep", "2");
    assertThat(noKey.exit()).isEqualTo(2);
    assertThat(noKey.err()).contains("needs the checkpoint signing key");

    CliRun r = CliRun.of("audit", "prune", dir.toString(), "--keep", "2", "--signing-key", signing.toString());
    assertThat(r.exit()).as(r.err()).isZero();
    assertThat(r.out()).startsWith("pruned seq 1-");
    assertThat(dir.resolve(AuditPruner.RECORD)).exists();

    CliRun v = CliRun.of("audit", "verify", dir.toString(), "--public-key", signing + ".pub");
    assertThat(v.exit()).as(v.err()).isZero();
    assertThat(v.out()).contains("pruned").contains("with valid signatures");

    CliRun again = CliRun.of("audit", "prune", dir.toString(), "--before", "2020-01-01", "--signing-key", signing.toString());
    assertThat(again.out().strip()).isEqualTo("nothing to prune");
    CliRun badDate = CliRun.of("audit", "prune", dir.toString(), "--before", "last tuesday", "--signing-key", signing.toString());
    assertThat(badDate.exit()).isEqualTo(2);
    assertThat(badDate.err()).contains("expected a date such as 2026-01-31");
  }

  @Test
  void theConfigsAuditBlockNamesTheFolderAndTheKey() throws Exception {
    Path key = encryptionKey();
    Path dir = writeLog(AuditSettings.in(tmp.resolve("elsewhere")).withEncryption(AuditCipher.read(key)));
    Path config = tmp.resolve("sluice.yaml");
    Files.writeString(config, "audit: {path: " + dir + ", encryption_key_file: " + key + "}\n");

    CliRun r = CliRun.of("audit", "tail", "--config", config.toString());

    assertThat(r.exit()).as(r.err()).isZero();
    assertThat(r.out()).contains("idempotency=rec-91f2");
    assertThat(CliRun.of("audit", "verify", "--config", config.toString()).exit()).isZero();
  }
}
