package dev.sluice.core.policy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The {@code audit} block and the {@code operators} list: read, defaulted, and refused with file, path and expectation. */
class AuditAndOperatorsPolicyTest {

  static List<Problem> problems(String yaml) {
    PolicyException e = catchThrowableOfType(PolicyException.class, () -> PolicyLoader.parse(yaml, "sluice.yaml"));
    assertThat(e).as("expected the policy to be refused").isNotNull();
    assertThat(e.getMessage()).contains("sluice.yaml");
    return e.problems();
  }

  @Test
  void noAuditBlockMeansAbsentAndAnEmptyOneMeansEveryDefault() {
    assertThat(PolicyLoader.parse("{}", "sluice.yaml").audit()).isEmpty();
    AuditPolicy a = PolicyLoader.parse("audit: {}", "sluice.yaml").audit().orElseThrow();
    assertThat(a).isEqualTo(AuditPolicy.DEFAULTS);
    assertThat(a.dir(Path.of("data"))).isEqualTo(Path.of("data", "audit"));
    assertThat(PolicyLoader.parse("audit:", "sluice.yaml").audit()).contains(AuditPolicy.DEFAULTS);
  }

  @Test
  void everyAuditKeyIsRead() {
    AuditPolicy a = PolicyLoader.parse("""
        audit:
          path: /var/lib/sluice/audit
          checkpoint_every: 500
          signing_key_file: /run/secrets/audit-signing.pem
          encryption_key_env: SLUICE_AUDIT_ENCRYPTION_KEY
          rotate: {max_bytes: 1048576, max_age_hours: 24}
          retention: {keep_segments: 30, max_age_days: 90}
        """, "sluice.yaml").audit().orElseThrow();

    assertThat(a.path()).contains(Path.of("/var/lib/sluice/audit"));
    assertThat(a.checkpointEvery()).isEqualTo(500);
    assertThat(a.signingKey()).contains(new SecretRef.File(Path.of("/run/secrets/audit-signing.pem")));
    assertThat(a.encryptionKey()).contains(new SecretRef.Env("SLUICE_AUDIT_ENCRYPTION_KEY"));
    assertThat(a.rotateMaxBytes()).isEqualTo(1048576);
    assertThat(a.rotateMaxAge()).contains(Duration.ofHours(24));
    assertThat(a.keepSegments()).isEqualTo(OptionalInt.of(30));
    assertThat(a.retentionMaxAge()).contains(Duration.ofDays(90));
  }

  @Test
  void auditMistakesNameThePathAndWhatWasExpected() {
    List<Problem> p = problems("""
        audit:
          checkpoint_every: -1
          signing_key_env: SLUICE_A
          signing_key_file: /k.pem
          encryption_key_env: "not a name"
          rotate: {max_bytes: 10}
          retention: {}
          rotatte: {}
        """);

    assertThat(p).extracting(Problem::path).contains("audit.checkpoint_every", "audit.signing_key_file", "audit.encryption_key_env",
        "audit.rotate.max_bytes", "audit.retention", "audit.rotatte");
    assertThat(p).filteredOn(x -> x.path().equals("audit.rotate.max_bytes")).first().extracting(Problem::message).asString()
        .contains("found 10").contains("1024");
    assertThat(p).filteredOn(x -> x.path().equals("audit.encryption_key_env")).first().extracting(Problem::message).asString()
        .doesNotContain("not a name");
    assertThat(p).filteredOn(x -> x.path().equals("audit.retention")).first().extracting(Problem::message).asString()
        .contains("keep_segments");
    assertThat(p).filteredOn(x -> x.path().equals("audit.rotatte")).first().extracting(Problem::message).asString().contains("rotate");
  }

  @Test
  void operatorsCarryTheirPermissionsAndTheLegacyOperatorHasThemAll() {
    Policy policy = PolicyLoader.parse("""
        operator: {token_env: SLUICE_OPERATOR_TOKEN}
        operators:
          - {id: alice, token_env: SLUICE_OPERATOR_ALICE, permissions: [read, audit_read]}
          - {id: bob, token_file: /run/secrets/bob, permissions: []}
        """, "sluice.yaml");

    assertThat(policy.operators()).extracting(Operator::id).containsExactly("alice", "bob");
    assertThat(policy.allOperators()).extracting(Operator::id).containsExactly("operator", "alice", "bob");
    assertThat(policy.allOperators().getFirst().permissions()).containsExactlyInAnyOrder(OperatorPermission.values());
    assertThat(policy.operators().get(0).permissions()).isEqualTo(Set.of(OperatorPermission.READ, OperatorPermission.AUDIT_READ));
    assertThat(policy.operators().get(1).may(OperatorPermission.AUDIT_READ)).isFalse();
    assertThat(PolicyLoader.parse("{}", "sluice.yaml").allOperators()).isEmpty();
  }

  @Test
  void operatorMistakesAreReportedEach() {
    List<Problem> p = problems("""
        operator: {token_env: SLUICE_OPERATOR_TOKEN}
        operators:
          - {id: operator, token_env: SLUICE_X, permissions: [read]}
          - {id: alice, token_env: SLUICE_A, permissions: [audit_reed]}
          - {id: alice, token_env: SLUICE_A, permissions: [read, read]}
          - {id: carol, token_env: SLUICE_C}
        """);

    assertThat(p).extracting(Problem::message).anySatisfy(m -> assertThat(m).contains("'operator' is the operator of the 'operator' block"))
        .anySatisfy(m -> assertThat(m).contains("found 'audit_reed'").contains("did you mean 'audit_read'"))
        .anySatisfy(m -> assertThat(m).contains("operator 'alice' is already defined"))
        .anySatisfy(m -> assertThat(m).contains("already used by the operator"))
        .anySatisfy(m -> assertThat(m).contains("permission 'read' is listed twice"))
        .anySatisfy(m -> assertThat(m).contains("missing").contains("permissions"));
  }

  @Test
  void aBuiltPolicyRefusesTwoOperatorsWithOneId() {
    Operator a = new Operator("alice", new SecretRef.Env("A"), Set.of());
    var e = catchThrowableOfType(IllegalArgumentException.class, () -> Policy.builder().operator(a).operator(a).build());
    assertThat(e).hasMessageContaining("operator 'alice' is defined twice");
    assertThat(Policy.builder().audit(AuditPolicy.DEFAULTS).build().audit()).isEqualTo(Optional.of(AuditPolicy.DEFAULTS));
  }
}
