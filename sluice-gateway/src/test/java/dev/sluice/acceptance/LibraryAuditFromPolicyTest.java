package dev.sluice.acceptance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.core.Call;
import dev.sluice.core.Sluice;
import dev.sluice.core.audit.AuditCipher;
import dev.sluice.core.audit.AuditEntry;
import dev.sluice.core.audit.AuditKeys;
import dev.sluice.core.audit.AuditReader;
import dev.sluice.core.audit.AuditVerification;
import dev.sluice.core.audit.AuditVerifier;
import dev.sluice.core.engine.Outcome;
import dev.sluice.core.engine.OutcomeCode;
import dev.sluice.fake.FakeProvider;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code Sluice.load(file)} writes the audit log its {@code audit} block describes: place, signing and encryption keys from files. */
class LibraryAuditFromPolicyTest {
  @TempDir Path tmp;

  @Test
  void theLibraryWritesAnEncryptedSignedAuditLogWhereTheBlockSays() throws Exception {
    KeyPair signing = AuditKeys.generate();
    Path signingFile = tmp.resolve("signing.pem");
    Files.writeString(signingFile, AuditKeys.privatePem(signing.getPrivate()));
    AuditCipher cipher = AuditCipher.generate();
    Path encFile = tmp.resolve("enc.key");
    Files.writeString(encFile, cipher.exportBase64());
    Path auditDir = tmp.resolve("elsewhere").resolve("audit");
    try (FakeProvider fake = FakeProvider.builder().start()) {
      Path config = tmp.resolve("sluice.yaml");
      Files.writeString(config, "data_dir: " + tmp.resolve("data") + "\n"
          + "audit: {path: " + auditDir + ", signing_key_file: " + signingFile + ", encryption_key_file: " + encFile + "}\n"
          + "providers:\n  api:\n    base_url: " + fake.baseUri() + "\n");
      Outcome o;
      try (Sluice sluice = Sluice.load(config)) {
        o = sluice.submit(Call.builder("api", "GET", "/v1/invoices/inv_1").task("lib-task").build()).get(30, TimeUnit.SECONDS);
      }
      assertThat(o.outcome()).isEqualTo(OutcomeCode.SUCCEEDED);
      assertThat(fake.attempts()).hasSize(1);
    }

    AuditVerification v = AuditVerifier.verify(auditDir, Optional.of(signing.getPublic()));
    assertThat(v.intact()).as(v.summary()).isTrue();
    assertThat(v.checkpoints()).isEqualTo(1); // the one written at close
    assertThat(tmp.resolve("data").resolve("audit")).doesNotExist();
    List<AuditEntry> entries = new AuditReader(auditDir, List.of(cipher)).all();
    assertThat(entries).extracting(AuditEntry::event).containsExactly("action_requested", "action_sent", "action_result", "checkpoint");
    assertThat(entries.get(2).fields()).containsEntry("status", 200L).containsEntry("task", "lib-task");
    assertThat(entries.subList(0, 3)).allSatisfy(e -> assertThat(e.payload()).isEqualTo(AuditEntry.Payload.DECRYPTED));
  }

  @Test
  void withoutAnAuditBlockTheLibraryWritesNoAuditLog() throws Exception {
    try (FakeProvider fake = FakeProvider.builder().start()) {
      Path config = tmp.resolve("sluice.yaml");
      Files.writeString(config, "data_dir: " + tmp.resolve("data") + "\nproviders:\n  api:\n    base_url: " + fake.baseUri() + "\n");
      try (Sluice sluice = Sluice.load(config)) {
        sluice.submit(Call.builder("api", "GET", "/x").task("t").build()).get(30, TimeUnit.SECONDS);
        assertThat(sluice.auditReader()).isEmpty();
      }
    }
    assertThat(tmp.resolve("data").resolve("audit")).doesNotExist();
  }

  @Test
  void retentionWithoutASigningKeyStopsTheStartWithTheKeysToSet() throws Exception {
    Path config = tmp.resolve("sluice.yaml");
    Files.writeString(config, "data_dir: " + tmp.resolve("data") + "\naudit: {retention: {keep_segments: 3}}\n");
    assertThatThrownBy(() -> Sluice.load(config).close()).isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("audit.retention").hasMessageContaining("signing_key_file");
  }

  @Test
  void aBadEncryptionKeyFileIsNamedNeverQuoted() throws Exception {
    Path encFile = tmp.resolve("enc.key");
    Files.writeString(encFile, "c2hvcnQ=");
    Path config = tmp.resolve("sluice.yaml");
    Files.writeString(config, "data_dir: " + tmp.resolve("data") + "\naudit: {encryption_key_file: " + encFile + "}\n");
    assertThatThrownBy(() -> Sluice.load(config).close()).isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("file " + encFile).hasMessageContaining("32 bytes").hasMessageNotContaining("c2hvcnQ");
  }
}
