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
import java.util.Base64;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Payload encryption at rest on real files: the chain covers the ciphertext and verifies without any key. */
class AuditEncryptionTest {
  static final Instant T0 = Instant.parse("2026-01-01T14:11:02Z");

  @TempDir Path dir;

  final AuditCipher key = AuditCipher.generate();

  void write(AuditSettings s, int n) {
    try (AuditLog log = AuditLog.open(s, () -> T0)) {
      for (int i = 1; i <= n; i++) {
        log.append("action_sent", T0.plusSeconds(i), Map.of("task", "sync-482", "action", "01J0ACTION", "attempt", i, "idempotency", "rec-91f2"));
      }
    }
  }

  String fileText() throws Exception {
    return Files.readString(dir.resolve("audit-000001.log"), StandardCharsets.UTF_8);
  }

  @Test
  void thePayloadIsCiphertextOnDiskAndTheEnvelopeStaysClear() throws Exception {
    write(AuditSettings.in(dir).withEncryption(key), 3);

    String text = fileText();
    assertThat(text).doesNotContain("rec-91f2").doesNotContain("\"attempt\"");
    assertThat(text).contains("\"task\":\"sync-482\"", "\"action\":\"01J0ACTION\"", "\"event\":\"action_sent\"", "\"enc\":\"" + key.keyId() + "\"");
    assertThat(text.lines()).hasSize(3).allSatisfy(l -> assertThat(l).contains("\"payload\":\"").contains("\"prev\":\"").contains("\"hash\":\""));
  }

  @Test
  void verifiesOfflineWithoutTheKeyAndAnEditedCiphertextIsModified() throws Exception {
    write(AuditSettings.in(dir).withEncryption(key), 3);
    assertThat(AuditVerifier.verify(dir).intact()).isTrue();

    List<String> lines = new ArrayList<>(Files.readAllLines(dir.resolve("audit-000001.log")));
    String l = lines.get(1);
    int p = l.indexOf("\"payload\":\"") + 15;
    lines.set(1, l.substring(0, p) + (l.charAt(p) == 'A' ? 'B' : 'A') + l.substring(p + 1));
    Files.writeString(dir.resolve("audit-000001.log"), String.join("\n", lines) + "\n");

    AuditVerification v = AuditVerifier.verify(dir);
    assertThat(v.firstBreak()).get().satisfies(b -> {
      assertThat(b.seq()).isEqualTo(2);
      assertThat(b.reason()).isEqualTo(Reason.MODIFIED);
    });
  }

  @Test
  void theKeyHolderReadsEveryFieldBack() throws Exception {
    write(AuditSettings.in(dir).withEncryption(key), 2);

    List<AuditEntry> entries = new AuditReader(dir, List.of(AuditCipher.parse(key.exportBase64()))).all();

    assertThat(entries).hasSize(2);
    assertThat(entries.get(1).payload()).isEqualTo(AuditEntry.Payload.DECRYPTED);
    assertThat(entries.get(1).fields()).containsEntry("task", "sync-482").containsEntry("attempt", 2L).containsEntry("idempotency", "rec-91f2");
  }

  @Test
  void withoutTheKeyOrWithAnotherKeyTheReaderSaysEncryptedAndNamesTheKeyId() throws Exception {
    write(AuditSettings.in(dir).withEncryption(key), 1);

    AuditEntry none = new AuditReader(dir, List.of()).all().getFirst();
    assertThat(none.payload()).isEqualTo(AuditEntry.Payload.ENCRYPTED);
    assertThat(none.fields()).containsOnlyKeys("task", "action");
    assertThat(none.note()).get().asString().contains("encrypted with key " + key.keyId()).contains("no decryption key");

    AuditCipher other = AuditCipher.generate();
    AuditEntry wrong = new AuditReader(dir, List.of(other)).all().getFirst();
    assertThat(wrong.payload()).isEqualTo(AuditEntry.Payload.ENCRYPTED);
    assertThat(wrong.note()).get().asString().contains(key.keyId()).contains(other.keyId());
  }

  @Test
  void aPayloadMovedToAnotherRecordDoesNotDecrypt() throws Exception {
    write(AuditSettings.in(dir).withEncryption(key), 2);
    List<String> lines = Files.readAllLines(dir.resolve("audit-000001.log"));
    AuditReader reader = new AuditReader(dir, List.of(key));
    String payload1 = lines.get(0).replaceAll(".*\"payload\":\"([^\"]+)\".*", "$1");
    String moved = lines.get(1).replaceAll("\"payload\":\"[^\"]+\"", "\"payload\":\"" + payload1 + "\"");

    AuditEntry e = reader.entry(moved).orElseThrow();

    assertThat(e.payload()).isEqualTo(AuditEntry.Payload.UNREADABLE);
    assertThat(e.note()).get().asString().contains("does not decrypt with key " + key.keyId());
  }

  @Test
  void noNonceRepeatsAcrossRecordsOrAcrossWritersOfTheSameKey() throws Exception {
    AuditSettings s = AuditSettings.in(dir).withEncryption(key);
    write(s, 20);
    write(s, 20); // a second writer continues the chain with the same key
    Set<String> nonces = new HashSet<>();
    for (String l : Files.readAllLines(dir.resolve("audit-000001.log"))) {
      String payload = l.replaceAll(".*\"payload\":\"([^\"]+)\".*", "$1");
      byte[] raw = Base64.getUrlDecoder().decode(payload);
      nonces.add(Base64.getEncoder().encodeToString(java.util.Arrays.copyOf(raw, 12)));
    }
    assertThat(nonces).hasSize(40);
    assertThat(AuditVerifier.verify(dir).intact()).isTrue();
  }

  @Test
  void checkpointsStayClearSoSignaturesVerifyWithoutTheEncryptionKey() throws Exception {
    KeyPair signing = AuditKeys.generate();
    write(AuditSettings.in(dir).withEncryption(key).withSigningKey(signing.getPrivate()).withCheckpointEvery(2), 5);

    assertThat(fileText()).contains("\"event\":\"checkpoint\"").contains("\"signed_hash\"");
    AuditVerification v = AuditVerifier.verify(dir, Optional.of(signing.getPublic()));
    assertThat(v.intact()).as(v.summary()).isTrue();
    assertThat(v.checkpoints()).isEqualTo(3);
  }

  @Test
  void aKeyIsThirtyTwoBytesOfBase64AndErrorsNeverQuoteIt() {
    String notAKey = "c2VjcmV0LXRoYXQtaXMtdG9vLXNob3J0";
    assertThatThrownBy(() -> AuditCipher.parse(notAKey)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("32 bytes").hasMessageNotContaining(notAKey);
    assertThatThrownBy(() -> AuditCipher.parse("not base64 at all!")).hasMessageContaining("base64").hasMessageNotContaining("not base64 at all");
    AuditCipher k = AuditCipher.generate();
    assertThat(AuditCipher.parse(k.exportBase64()).keyId()).isEqualTo(k.keyId());
    assertThat(AuditCipher.parse(Base64.getUrlEncoder().withoutPadding().encodeToString(Base64.getDecoder().decode(k.exportBase64()))).keyId())
        .isEqualTo(k.keyId());
    assertThat(k.toString()).doesNotContain(k.exportBase64());
  }
}
