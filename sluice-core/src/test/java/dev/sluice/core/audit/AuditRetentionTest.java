package dev.sluice.core.audit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.core.audit.AuditVerification.Reason;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Segment rotation by size and age, and pruning that leaves a signed record the verifier starts from. */
class AuditRetentionTest {
  static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

  @TempDir Path dir;

  final KeyPair signing = AuditKeys.generate();
  final AtomicReference<Instant> now = new AtomicReference<>(T0);

  AuditSettings small() {
    return AuditSettings.in(dir).withSigningKey(signing.getPrivate()).withSegmentBytes(1024).withCheckpointEvery(0);
  }

  void append(AuditLog log, int n) {
    for (int i = 0; i < n; i++) {
      log.append("action_sent", now.get(), Map.of("task", "t-" + i, "attempt", 1, "idempotency", "k".repeat(40)));
    }
  }

  List<Path> segments() throws Exception {
    return AuditVerifier.segments(dir);
  }

  @Test
  void segmentsRotateByAgeAtTheFirstRecordPastTheAge() throws Exception {
    try (AuditLog log = AuditLog.open(AuditSettings.in(dir).withSegmentMaxAge(Duration.ofHours(1)), now::get)) {
      append(log, 2);
      now.set(T0.plus(Duration.ofMinutes(59)));
      append(log, 1);
      assertThat(segments()).hasSize(1);
      now.set(T0.plus(Duration.ofMinutes(60)));
      append(log, 1);
      assertThat(segments()).hasSize(2);
    }
    assertThat(Files.readAllLines(dir.resolve("audit-000002.log"))).hasSize(1);
    assertThat(AuditVerifier.verify(dir).intact()).isTrue();
  }

  @Test
  void pruningKeepsTheNewestSegmentsAndTheRestStillVerifiesWithThePublicKey() throws Exception {
    try (AuditLog log = AuditLog.open(small(), now::get)) {
      append(log, 30);
    }
    int before = segments().size();
    assertThat(before).isGreaterThan(3);
    String firstKeptName = segments().get(before - 2).getFileName().toString();

    var r = AuditPruner.prune(dir, signing.getPrivate(), new AuditPruner.Selection.Keep(2), now.get()).orElseThrow();

    assertThat(segments()).extracting(p -> p.getFileName().toString()).first().isEqualTo(firstKeptName);
    assertThat(segments()).hasSize(2);
    String firstKept = Files.readAllLines(dir.resolve(firstKeptName)).getFirst();
    assertThat(firstKept).contains("\"seq\":" + (r.lastSeq() + 1) + ",").contains("\"prev\":\"" + r.lastHash() + "\"");
    AuditVerification v = AuditVerifier.verify(dir, Optional.of(signing.getPublic()));
    assertThat(v.intact()).as(v.summary()).isTrue();
    assertThat(v.prunedThrough()).isEqualTo(r.lastSeq());
    assertThat(v.summary()).contains("seq 1-" + r.lastSeq() + " pruned");
  }

  @Test
  void pruningByDateRemovesOnlySegmentsWhoseLastRecordIsOlder() throws Exception {
    try (AuditLog log = AuditLog.open(small(), now::get)) {
      append(log, 8);
      now.set(T0.plus(Duration.ofDays(10)));
      append(log, 20);
    }
    List<Path> all = segments();

    AuditPruner.prune(dir, signing.getPrivate(), new AuditPruner.Selection.Before(T0.plus(Duration.ofDays(5))), now.get());

    for (Path kept : segments()) {
      assertThat(Files.readString(kept)).contains(T0.plus(Duration.ofDays(10)).toString());
    }
    assertThat(segments().size()).isLessThan(all.size());
    assertThat(AuditVerifier.verify(dir, Optional.of(signing.getPublic())).intact()).isTrue();
  }

  @Test
  void anEditedPruneRecordIsABadSignatureAndADeletedOneLeavesSeqsMissing() throws Exception {
    try (AuditLog log = AuditLog.open(small(), now::get)) {
      append(log, 30);
    }
    AuditPruner.prune(dir, signing.getPrivate(), new AuditPruner.Selection.Keep(2), now.get());
    Path record = dir.resolve(AuditPruner.RECORD);
    String original = Files.readString(record);

    // Claim fewer records were pruned (hiding that more went): the signature no longer matches.
    Files.writeString(record, original.replaceFirst("\"segments\":(\\d+)", "\"segments\":1"));
    AuditVerification edited = AuditVerifier.verify(dir, Optional.of(signing.getPublic()));
    assertThat(edited.firstBreak()).get().satisfies(b -> {
      assertThat(b.file()).isEqualTo(AuditPruner.RECORD);
      assertThat(b.reason()).isEqualTo(Reason.BAD_SIGNATURE);
    });

    // Change the hash it vouches for: even without the public key the chain no longer joins.
    Files.writeString(record, original.replaceFirst("\"last_hash\":\"[0-9a-f]", "\"last_hash\":\"" + (original.contains("\"last_hash\":\"0") ? "1" : "0")));
    assertThat(AuditVerifier.verify(dir).firstBreak()).get().extracting(AuditVerification.Break::reason).isEqualTo(Reason.MODIFIED);

    Files.delete(record);
    AuditVerification deleted = AuditVerifier.verify(dir);
    assertThat(deleted.firstBreak()).get().extracting(AuditVerification.Break::reason).isEqualTo(Reason.MISSING);
  }

  @Test
  void aPruneRecordSignedWithAnotherKeyDoesNotVerify() throws Exception {
    try (AuditLog log = AuditLog.open(small(), now::get)) {
      append(log, 30);
    }
    AuditPruner.prune(dir, AuditKeys.generate().getPrivate(), new AuditPruner.Selection.Keep(2), now.get());

    assertThat(AuditVerifier.verify(dir, Optional.of(signing.getPublic())).firstBreak()).get()
        .extracting(AuditVerification.Break::reason).isEqualTo(Reason.BAD_SIGNATURE);
  }

  @Test
  void configuredRetentionPrunesAtRotationAndRecordsThePruneInTheChain() throws Exception {
    AuditSettings s = small().withRetention(new AuditRetention(OptionalInt.of(2), Optional.empty()));
    try (AuditLog log = AuditLog.open(s, now::get)) {
      append(log, 40);
    }
    // Two kept at the last rotation, plus at most one the closing checkpoint rotated into (pruned at the next rotation).
    assertThat(segments().size()).isLessThanOrEqualTo(3);
    assertThat(segments().getFirst().getFileName().toString()).isNotEqualTo("audit-000001.log");
    String all = String.join("\n", segments().stream().map(p -> {
      try {
        return Files.readString(p, StandardCharsets.UTF_8);
      } catch (Exception e) {
        throw new RuntimeException(e);
      }
    }).toList());
    assertThat(all).contains("\"event\":\"segments_pruned\"");
    AuditVerification v = AuditVerifier.verify(dir, Optional.of(signing.getPublic()));
    assertThat(v.intact()).as(v.summary()).isTrue();
    assertThat(v.prunedThrough()).isPositive();
  }

  @Test
  void aLogThatDoesNotVerifyIsNotPruned() throws Exception {
    try (AuditLog log = AuditLog.open(small(), now::get)) {
      append(log, 30);
    }
    Path first = segments().getFirst();
    Files.writeString(first, Files.readString(first).replaceFirst("t-0", "t-X"));
    int before = segments().size();

    assertThatThrownBy(() -> AuditPruner.prune(dir, signing.getPrivate(), new AuditPruner.Selection.Keep(1), now.get()))
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("nothing was pruned");
    assertThat(segments()).hasSize(before);
    assertThat(dir.resolve(AuditPruner.RECORD)).doesNotExist();
  }

  @Test
  void retentionWithoutASigningKeyIsRefused() {
    AuditSettings s = AuditSettings.in(dir).withRetention(new AuditRetention(OptionalInt.of(2), Optional.empty()));
    assertThatThrownBy(() -> AuditLog.open(s, now::get)).hasMessageContaining("signing key");
  }

  @Test
  void keepOneLeavesTheLastSegmentAndAReopenedLogContinuesTheChain() throws Exception {
    try (AuditLog log = AuditLog.open(small(), now::get)) {
      append(log, 30);
    }
    Path last = segments().getLast();
    AuditPruner.prune(dir, signing.getPrivate(), new AuditPruner.Selection.Keep(1), now.get());
    assertThat(segments()).containsExactly(last);

    try (AuditLog log = AuditLog.open(small(), now::get)) {
      append(log, 1);
    }
    AuditVerification v = AuditVerifier.verify(dir, Optional.of(signing.getPublic()));
    assertThat(v.intact()).as(v.summary()).isTrue();
  }
}
