package dev.sluice.core.audit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.core.audit.AuditVerification.Reason;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AuditLogTamperingTest {
  static final Instant T0 = Instant.parse("2026-01-01T14:11:02Z");

  @TempDir Path dir;

  AuditLog open(AuditSettings s) {
    return AuditLog.open(s, () -> T0);
  }

  void writeFive(AuditSettings s) {
    try (AuditLog log = open(s)) {
      for (int i = 1; i <= 5; i++) {
        log.append("action_sent", T0.plusSeconds(i), Map.of("task", "sync-482", "attempt", i, "idempotency", "rec-91f2"));
      }
    }
  }

  Path segment() {
    return dir.resolve("audit-000001.log");
  }

  List<String> lines() throws Exception {
    return new ArrayList<>(Files.readAllLines(segment(), StandardCharsets.UTF_8));
  }

  void rewrite(List<String> lines) throws Exception {
    Files.writeString(segment(), String.join("\n", lines) + "\n", StandardCharsets.UTF_8);
  }

  @Nested
  class AnIntactLog {
    @Test
    void verifiesWithItsRecordCountSegmentsAndHead() throws Exception {
      AuditLog log = open(AuditSettings.in(dir));
      log.append("action_requested", T0, Map.of("task", "sync-482"));
      log.append("action_sent", T0, Map.of("attempt", 1));
      String head = log.head();
      log.close();

      AuditVerification v = AuditVerifier.verify(dir);

      assertThat(v.intact()).isTrue();
      assertThat(v.records()).isEqualTo(2);
      assertThat(v.segments()).isEqualTo(1);
      assertThat(v.head()).isEqualTo(head);
      assertThat(v.summary()).startsWith("OK 2 records in 1 segment(s)");
    }

    @Test
    void storesOneCanonicalJsonRecordPerLineWithSortedKeysAndTheHashLast() throws Exception {
      try (AuditLog log = open(AuditSettings.in(dir))) {
        log.append("action_result", T0, Map.of("status", 429, "retry_after", 30, "scope", "account:ops"));
      }
      String line = lines().get(0);
      assertThat(line).startsWith("{\"at\":\"2026-01-01T14:11:02Z\",\"event\":\"action_result\",\"prev\":\"" + "0".repeat(64)
          + "\",\"retry_after\":30,\"scope\":\"account:ops\",\"seq\":1,\"status\":429,\"hash\":\"");
    }

    @Test
    void continuesTheChainAfterReopeningAndAcrossSegments() throws Exception {
      AuditSettings small = AuditSettings.in(dir).withSegmentBytes(1024);
      for (int round = 0; round < 3; round++) {
        try (AuditLog log = open(small)) {
          for (int i = 0; i < 5; i++) {
            log.append("action_sent", T0, Map.of("task", "t" + round, "attempt", i));
          }
        }
      }
      AuditVerification v = AuditVerifier.verify(dir);
      assertThat(v.intact()).as(v.summary()).isTrue();
      assertThat(v.records()).isEqualTo(15);
      assertThat(v.segments()).isGreaterThan(1);
    }

    @Test
    void concurrentAppendsKeepOneGaplessChain() throws Exception {
      ExecutorService pool = Executors.newFixedThreadPool(4);
      try (AuditLog log = open(AuditSettings.in(dir))) {
        for (int i = 0; i < 200; i++) {
          int n = i;
          pool.submit(() -> log.append("action_sent", T0, Map.of("attempt", n)));
        }
        pool.shutdown();
        assertThat(pool.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
      }
      AuditVerification v = AuditVerifier.verify(dir);
      assertThat(v.intact()).as(v.summary()).isTrue();
      assertThat(v.records()).isEqualTo(200);
    }

    @Test
    void refusesReservedFieldsAndNonScalarValues() {
      try (AuditLog log = open(AuditSettings.in(dir))) {
        assertThatThrownBy(() -> log.append("x", T0, Map.of("seq", 9))).hasMessageContaining("reserved");
        assertThatThrownBy(() -> log.append("x", T0, Map.of("body", new byte[] {1}))).hasMessageContaining("string, an integer or a boolean");
      }
    }
  }

  @Nested
  class Tampering {
    @Test
    void oneChangedByteInAnyRecordIsReportedAsModifiedAtThatRecord() throws Exception {
      writeFive(AuditSettings.in(dir));
      byte[] original = Files.readAllBytes(segment());
      List<String> lines = lines();
      int offset = 0;
      for (int r = 0; r < lines.size(); r++) {
        int len = lines.get(r).length();
        for (int pos : new int[] {0, 7, len / 2, len - 3}) {
          byte[] b = original.clone();
          b[offset + pos] = (byte) (b[offset + pos] == '1' ? '2' : '1');
          Files.write(segment(), b);
          AuditVerification v = AuditVerifier.verify(dir);
          assertThat(v.firstBreak()).as("record %d byte %d", r + 1, pos).isPresent();
          assertThat(v.firstBreak().get().reason()).as("record %d byte %d", r + 1, pos).isEqualTo(Reason.MODIFIED);
          assertThat(v.firstBreak().get().seq()).isEqualTo(r + 1);
          assertThat(v.firstBreak().get().line()).isEqualTo(r + 1);
        }
        offset += len + 1;
      }
    }

    @Test
    void aDeletedRecordIsReportedAsMissing() throws Exception {
      writeFive(AuditSettings.in(dir));
      List<String> lines = lines();
      lines.remove(2);
      rewrite(lines);

      AuditVerification v = AuditVerifier.verify(dir);

      assertThat(v.firstBreak().get().reason()).isEqualTo(Reason.MISSING);
      assertThat(v.firstBreak().get().seq()).isEqualTo(3);
      assertThat(v.records()).isEqualTo(2);
    }

    @Test
    void twoSwappedRecordsAreReportedAsReordered() throws Exception {
      writeFive(AuditSettings.in(dir));
      List<String> lines = lines();
      String third = lines.get(2);
      lines.set(2, lines.get(3));
      lines.set(3, third);
      rewrite(lines);

      AuditVerification v = AuditVerifier.verify(dir);

      assertThat(v.firstBreak().get().reason()).isEqualTo(Reason.REORDERED);
      assertThat(v.firstBreak().get().seq()).isEqualTo(3);
    }

    @Test
    void aTailCutMidRecordIsReportedAsTruncated() throws Exception {
      writeFive(AuditSettings.in(dir));
      byte[] b = Files.readAllBytes(segment());
      Files.write(segment(), java.util.Arrays.copyOf(b, b.length - 10));

      AuditVerification v = AuditVerifier.verify(dir);

      assertThat(v.firstBreak().get().reason()).isEqualTo(Reason.TRUNCATED);
      assertThat(v.firstBreak().get().seq()).isEqualTo(5);
      assertThatThrownBy(() -> open(AuditSettings.in(dir))).hasMessageContaining("torn");
    }
  }

  @Nested
  class SignedCheckpoints {
    KeyPair keys = AuditKeys.generate();

    AuditSettings signed(int every) {
      return AuditSettings.in(dir).withSigningKey(keys.getPrivate()).withCheckpointEvery(every);
    }

    @Test
    void areWrittenEveryNRecordsAndAtCloseAndVerifyWithThePublicKey() throws Exception {
      writeFive(signed(2));

      AuditVerification v = AuditVerifier.verify(dir, Optional.of(keys.getPublic()));

      assertThat(v.intact()).as(v.summary()).isTrue();
      assertThat(v.checkpoints()).isEqualTo(3); // after 2, after 4, and at close over the 5th
      assertThat(v.records()).isEqualTo(8);
      assertThat(v.summary()).contains("with valid signatures");
    }

    @Test
    void aTailCutAfterACheckpointIsDetected() throws Exception {
      writeFive(signed(2));
      List<String> lines = lines();
      rewrite(lines.subList(0, 4)); // ends cleanly at the first checkpoint: the chain alone looks fine

      assertThat(AuditVerifier.verify(dir).intact()).isTrue();
      AuditVerification v = AuditVerifier.verify(dir, Optional.of(keys.getPublic()));
      assertThat(v.firstBreak().get().reason()).isEqualTo(Reason.TRUNCATED_AFTER_CHECKPOINT);
    }

    @Test
    void aWholesaleRechainedForgeryWithoutTheSigningKeyIsDetected() throws Exception {
      writeFive(signed(2));
      List<String> lines = lines();
      Files.delete(segment());
      // The forger rewrites history with a valid chain, copying the old checkpoints' fields.
      try (AuditLog forged = AuditLog.open(AuditSettings.in(dir), () -> T0)) {
        for (String line : lines) {
          var node = dev.sluice.core.audit.internal.Canonical.parse(line);
          java.util.Map<String, Object> f = new java.util.LinkedHashMap<>();
          node.fields().forEachRemaining(en -> {
            if (!AuditLog.RESERVED.contains(en.getKey())) {
              f.put(en.getKey(), en.getValue().isInt() ? (Object) en.getValue().asInt() : en.getValue().asText());
            }
          });
          if ("action_sent".equals(node.path("event").asText())) {
            f.put("idempotency", "forged");
          }
          forged.append(node.path("event").asText(), Instant.parse(node.path("at").asText()), f);
        }
      }

      assertThat(AuditVerifier.verify(dir).intact()).as("structure alone cannot tell").isTrue();
      AuditVerification v = AuditVerifier.verify(dir, Optional.of(keys.getPublic()));
      assertThat(v.firstBreak().get().reason()).isEqualTo(Reason.BAD_SIGNATURE);
    }

    @Test
    void aLogWithoutAnyCheckpointFailsWhenAPublicKeyIsGiven() throws Exception {
      writeFive(AuditSettings.in(dir));

      AuditVerification v = AuditVerifier.verify(dir, Optional.of(keys.getPublic()));

      assertThat(v.firstBreak().get().reason()).isEqualTo(Reason.NO_CHECKPOINT);
    }

    @Test
    void anotherKeyDoesNotVerify() throws Exception {
      writeFive(signed(2));

      AuditVerification v = AuditVerifier.verify(dir, Optional.of(AuditKeys.generate().getPublic()));

      assertThat(v.firstBreak().get().reason()).isEqualTo(Reason.BAD_SIGNATURE);
    }

    @Test
    void keysRoundTripThroughPemAndThePublicKeyDerivesFromThePrivateOne() {
      var priv = AuditKeys.parsePrivate(AuditKeys.privatePem(keys.getPrivate()));
      var pub = AuditKeys.parsePublic(AuditKeys.publicPem(keys.getPublic()));
      assertThat(AuditKeys.publicOf(priv).getEncoded()).isEqualTo(pub.getEncoded());
      assertThatThrownBy(() -> AuditKeys.parsePrivate("garbage")).hasMessageNotContaining("garbage");
    }
  }
}
