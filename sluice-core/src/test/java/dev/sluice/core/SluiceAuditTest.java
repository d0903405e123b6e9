package dev.sluice.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.core.audit.AuditKeys;
import dev.sluice.core.audit.AuditVerification;
import dev.sluice.core.audit.AuditVerifier;
import dev.sluice.core.engine.OutcomeCode;
import dev.sluice.core.engine.VirtualScheduler;
import dev.sluice.core.policy.Policy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link Sluice.Builder#auditFromPolicy()}: the log in {@code <data_dir>/audit}, signed with the key the environment names. */
class SluiceAuditTest {
  static final Instant T0 = Instant.parse("2026-01-01T14:11:02Z");

  @TempDir Path dir;

  Policy policy() {
    return dev.sluice.core.policy.PolicyLoader.parse("data_dir: " + dir + "\n" + """
        providers:
          billing-api:
            base_url: https://billing.example.com
            scope: account:ops-team
            routes:
              - {method: GET, path: "/v1/invoices/{id}", class: read, immutable: true}
        """, "test.yaml");
  }

  @Test
  void callsAreAuditedInTheDataDirAndTheFinalCheckpointIsSignedWithTheKeyFile() throws Exception {
    KeyPair keys = AuditKeys.generate();
    Path keyFile = dir.resolve("audit.key");
    Files.writeString(keyFile, AuditKeys.privatePem(keys.getPrivate()));
    VirtualScheduler clock = new VirtualScheduler(T0);
    Map<String, String> env = Map.of(Sluice.Builder.AUDIT_KEY_FILE_ENV, keyFile.toString());
    try (Sluice sluice = Sluice.builder().policy(policy()).scheduler(clock).transport(new ScriptedTransport(clock, a -> ScriptedTransport.ok()))
        .auditFromPolicy(name -> Optional.ofNullable(env.get(name))).build()) {
      var f = sluice.submit(Call.get("billing-api", "/v1/invoices/inv_1", "t1"));
      clock.advanceTo(T0.plusSeconds(1));
      assertThat(f.join().outcome()).isEqualTo(OutcomeCode.SUCCEEDED);
    }

    AuditVerification v = AuditVerifier.verify(dir.resolve("audit"), Optional.of(keys.getPublic()));
    assertThat(v.intact()).as(v.summary()).isTrue();
    assertThat(v.checkpoints()).isEqualTo(1);
    assertThat(Files.readString(dir.resolve("audit/audit-000001.log"))).contains("\"event\":\"action_requested\"", "\"event\":\"action_sent\"",
        "\"event\":\"action_result\"");
  }

  @Test
  void eachAgentsStandingAccessFromThePolicyIsRecordedAtStartApartFromAnyApprovalOfOneAction() throws Exception {
    Policy withAgent = dev.sluice.core.policy.PolicyLoader.parse("data_dir: " + dir + "\n" + """
        providers:
          billing-api:
            base_url: https://billing.example.com
        agents:
          - {id: inventory-bot, token_env: BOT_TOKEN, providers: [billing-api]}
        """, "test.yaml");
    VirtualScheduler clock = new VirtualScheduler(T0);
    try (Sluice sluice = Sluice.builder().policy(withAgent).scheduler(clock).transport(new ScriptedTransport(clock, a -> ScriptedTransport.ok()))
        .auditFromPolicy(name -> Optional.empty()).build()) {
      assertThat(sluice.escalations()).as("no journal: no escalations").isEmpty();
    }
    String log = Files.readString(dir.resolve("audit/audit-000001.log"));
    assertThat(log).contains("\"event\":\"access_granted\"").contains("\"agent\":\"inventory-bot\"").contains("\"providers\":\"billing-api\"")
        .doesNotContain("BOT_TOKEN");
  }

  @Test
  void anUnreadableKeyStopsTheStartWithoutQuotingIt() {
    VirtualScheduler clock = new VirtualScheduler(T0);
    Map<String, String> env = Map.of(Sluice.Builder.AUDIT_KEY_ENV, "not-a-key-s3cr3t");
    assertThatThrownBy(() -> Sluice.builder().policy(policy()).scheduler(clock).transport(new ScriptedTransport(clock, a -> ScriptedTransport.ok()))
        .auditFromPolicy(name -> Optional.ofNullable(env.get(name))).build())
        .isInstanceOf(IllegalStateException.class).hasMessageContaining(Sluice.Builder.AUDIT_KEY_ENV).hasMessageNotContaining("s3cr3t");
  }

  @Test
  void theEncryptionKeyVariableEncryptsPayloadsWithoutAnyAuditBlock() throws Exception {
    dev.sluice.core.audit.AuditCipher key = dev.sluice.core.audit.AuditCipher.generate();
    VirtualScheduler clock = new VirtualScheduler(T0);
    Map<String, String> env = Map.of(Sluice.Builder.AUDIT_ENCRYPTION_KEY_ENV, key.exportBase64());
    try (Sluice sluice = Sluice.builder().policy(policy()).scheduler(clock).transport(new ScriptedTransport(clock, a -> ScriptedTransport.ok()))
        .auditFromPolicy(name -> Optional.ofNullable(env.get(name))).build()) {
      var f = sluice.submit(Call.get("billing-api", "/v1/invoices/inv_1", "t1"));
      clock.advanceTo(T0.plusSeconds(1));
      assertThat(f.join().outcome()).isEqualTo(OutcomeCode.SUCCEEDED);
    }

    String text = Files.readString(dir.resolve("audit/audit-000001.log"));
    assertThat(text).contains("\"enc\":\"" + key.keyId() + "\"").doesNotContain("\"status\":200").doesNotContain("/v1/invoices");
    assertThat(AuditVerifier.verify(dir.resolve("audit")).intact()).isTrue();
    var entries = new dev.sluice.core.audit.AuditReader(dir.resolve("audit"), java.util.List.of(key)).all();
    assertThat(entries).extracting(e -> e.fields().get("status")).contains(200L);
  }
}
