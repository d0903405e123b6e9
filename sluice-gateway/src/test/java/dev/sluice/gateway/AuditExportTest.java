package dev.sluice.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.core.audit.AuditCipher;
import dev.sluice.core.audit.AuditKeys;
import dev.sluice.core.audit.AuditVerifier;
import dev.sluice.fake.FakeProvider;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code GET /v1/audit}: NDJSON export of the (encrypted-at-rest) audit log for operators with
 * {@code audit_read}, 403 problem+json for operators without it; per-operator permissions on the
 * other admin endpoints, with the single {@code operator} block keeping every permission.
 */
class AuditExportTest {
  static final String ROUTE = "routes:\n  - {method: GET, path: \"/v1/invoices/{id}\", class: read}\n";
  static final String AUDITOR = "auditor-token-0123456789abcdef";
  static final String READER = "reader-token-0123456789abcdef";
  static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path tmp;

  final AuditCipher cipher = AuditCipher.generate();
  final KeyPair signing = AuditKeys.generate();

  GatewayHarness start() {
    String top = "data_dir: " + tmp.resolve("data") + "\n"
        + "audit: {encryption_key_env: AUDIT_ENC, signing_key_env: AUDIT_SIGN, checkpoint_every: 5}\n"
        + "operators:\n"
        + "  - {id: auditor, token_env: AUDITOR_TOKEN, permissions: [audit_read]}\n"
        + "  - {id: reader, token_env: READER_TOKEN, permissions: [read]}\n";
    Map<String, String> env = Map.of("AUDITOR_TOKEN", AUDITOR, "READER_TOKEN", READER, "AUDIT_ENC", cipher.exportBase64(),
        "AUDIT_SIGN", AuditKeys.privatePem(signing.getPrivate()));
    return new GatewayHarness(FakeProvider.builder(), ROUTE, top, env, (b, lookup) -> b.journalFromPolicy().auditFromPolicy(lookup));
  }

  static List<JsonNode> ndjson(String body) {
    return body.lines().map(l -> {
      try {
        return JSON.readTree(l);
      } catch (Exception e) {
        throw new AssertionError("not JSON: " + l, e);
      }
    }).toList();
  }

  /** The audit trail appends on its own thread: poll the export (bounded) until {@code event} of {@code task} is there. */
  static List<JsonNode> awaitEvent(GatewayHarness h, String task, String event) throws InterruptedException {
    long end = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    while (true) {
      List<JsonNode> got = ndjson(h.get("/v1/audit?task=" + task, AUDITOR).body());
      if (got.stream().anyMatch(n -> n.path("event").asText().equals(event))) {
        return got;
      }
      assertThat(System.nanoTime()).as("no %s for %s within 10 s", event, task).isLessThan(end);
      Thread.sleep(10);
    }
  }

  @Test
  void anAuditReaderExportsDecryptedNdjsonFilteredByTaskWithPaging() throws Exception {
    try (GatewayHarness h = start()) {
      for (String task : List.of("t-one", "t-two")) {
        HttpResponse<String> r = h.send(HttpRequest.newBuilder(h.uri("/api/v1/invoices/inv_1"))
            .header("Authorization", "Bearer " + GatewayHarness.AGENT_TOKEN).header("Sluice-Task", task));
        assertThat(r.statusCode()).isEqualTo(200);
      }
      List<JsonNode> one = awaitEvent(h, "t-one", "action_result");
      awaitEvent(h, "t-two", "action_result");

      HttpResponse<String> r = h.get("/v1/audit?task=t-one", AUDITOR);
      assertThat(r.statusCode()).isEqualTo(200);
      assertThat(r.headers().firstValue("Content-Type")).hasValueSatisfying(v -> assertThat(v).startsWith("application/x-ndjson"));
      assertThat(one).extracting(n -> n.path("event").asText()).containsSubsequence("action_requested", "action_sent", "action_result");
      assertThat(one).allSatisfy(n -> {
        assertThat(n.path("fields").path("task").asText()).isEqualTo("t-one");
        assertThat(n.path("payload").asText()).isEqualTo("decrypted");
      });
      JsonNode result = one.stream().filter(n -> n.path("event").asText().equals("action_result")).findFirst().orElseThrow();
      assertThat(result.path("fields").path("status").asInt()).isEqualTo(200);

      List<JsonNode> firstPage = ndjson(h.get("/v1/audit?limit=2", AUDITOR).body());
      HttpResponse<String> page = h.get("/v1/audit?limit=2", AUDITOR);
      assertThat(firstPage).hasSize(2);
      assertThat(page.headers().firstValue("Sluice-Audit-More")).contains("true");
      long last = Long.parseLong(page.headers().firstValue("Sluice-Audit-Last-Seq").orElseThrow());
      List<JsonNode> next = ndjson(h.get("/v1/audit?limit=2&after_seq=" + last, AUDITOR).body());
      assertThat(next.getFirst().path("seq").asLong()).isEqualTo(last + 1);

      HttpResponse<String> bad = h.get("/v1/audit?after_seq=soon", AUDITOR);
      assertThat(bad.statusCode()).isEqualTo(400);
      assertThat(bad.body()).contains("after_seq");
    }
    Path auditDir = tmp.resolve("data").resolve("audit");
    assertThat(AuditVerifier.verify(auditDir, Optional.of(signing.getPublic())).intact()).isTrue();
    try (Stream<Path> files = Files.list(auditDir)) {
      String all = String.join("\n", files.map(p -> {
        try {
          return Files.readString(p);
        } catch (Exception e) {
          throw new IllegalStateException(e);
        }
      }).toList());
      assertThat(all).contains("\"event\":\"audit_exported\"").contains("\"enc\":\"" + cipher.keyId() + "\"")
          .doesNotContain("\"status\":200").doesNotContain("auditor\"");
    }
  }

  @Test
  void withoutAuditReadTheExportIs403AndTheOtherPermissionsHoldPerEndpoint() {
    try (GatewayHarness h = start()) {
      HttpResponse<String> refused = h.get("/v1/audit", READER);
      assertThat(refused.statusCode()).isEqualTo(403);
      assertThat(refused.headers().firstValue("Content-Type")).contains("application/problem+json");
      assertThat(refused.body()).contains("forbidden").contains("'reader' lacks the 'audit_read' permission");

      assertThat(h.get("/v1/scopes", READER).statusCode()).isEqualTo(200);
      assertThat(h.get("/v1/scopes", AUDITOR).statusCode()).isEqualTo(403);
      HttpResponse<String> cancel = h.send(HttpRequest.newBuilder(h.uri("/v1/tasks/x")).DELETE().header("Authorization", "Bearer " + READER));
      assertThat(cancel.statusCode()).isEqualTo(403);
      assertThat(cancel.body()).contains("'cancel'");

      // The single operator of the operator block keeps every permission.
      assertThat(h.get("/v1/audit", GatewayHarness.OPERATOR_TOKEN).statusCode()).isEqualTo(200);
      assertThat(h.get("/v1/scopes", GatewayHarness.OPERATOR_TOKEN).statusCode()).isEqualTo(200);
      // Agents and strangers never reach it.
      assertThat(h.get("/v1/audit", GatewayHarness.AGENT_TOKEN).statusCode()).isEqualTo(401);
      assertThat(h.get("/v1/audit", null).statusCode()).isEqualTo(401);
    }
  }

  @Test
  void withoutAnAuditLogTheExportSaysSo() {
    try (GatewayHarness h = new GatewayHarness(FakeProvider.builder(), ROUTE)) {
      HttpResponse<String> r = h.get("/v1/audit", GatewayHarness.OPERATOR_TOKEN);
      assertThat(r.statusCode()).isEqualTo(404);
      assertThat(r.body()).contains("audit_not_enabled");
    }
  }
}
