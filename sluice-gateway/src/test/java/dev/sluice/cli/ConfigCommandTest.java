package dev.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code sluice config check} end to end through the real command line, with captured output. */
class ConfigCommandTest {

  @TempDir Path dir;

  static CliRun run(String... args) {
    return CliRun.of(args);
  }

  static Path example() {
    Path p = Path.of("..", "examples", "sluice.yaml");
    assertThat(p).exists();
    return p;
  }

  @Test
  void theExampleChecksOkWithASummary() {
    CliRun r = run("config", "check", example().toString());

    assertThat(r.exit()).isZero();
    assertThat(r.err()).isEmpty();
    assertThat(r.out().lines().findFirst()).contains("ok: " + example());
    assertThat(r.out())
        .contains("listen 127.0.0.1:7070, data_dir ./sluice-data, store embedded")
        .contains("request classes (3):")
        .contains("read              max_attempts 4, max_wait 90s, retries on 408 429 500 502 503 504")
        .contains("uncertain_write   max_attempts 1, max_wait 0s, retries on no status")
        .contains("providers (2):")
        .containsPattern("billing-api +http://127.0.0.1:8099  scope account:ops-team  5 routes  idempotency Idempotency-Key  rate 100/60s")
        .containsPattern("records-api +http://127.0.0.1:8099  scope credential:records-api  5 routes  idempotency none")
        .contains("POST    /records  uncertain_write, look-up GET /records?client_reference={external_reference}")
        .contains("agents (2):")
        .containsPattern("inventory-bot +-> billing-api  \\(token from env SLUICE_TOKEN_INVENTORY_BOT\\)");
  }

  @Test
  void everyProblemIsPrintedOnItsOwnLineAndTheExitIsTwo() throws Exception {
    Path file = dir.resolve("bad.yaml");
    Files.writeString(file, """
        request_classes:
          read: {max_atempts: 4, max_wait_seconds: 90, retry_statuses: []}
          uncertain_write: {max_attempts: 1, max_wait_seconds: 0, retry_statuses: []}
        providers:
          billing-api:
            base_url: https://billing.example.com
            routes:
              - {method: GET, path: /v1/x, class: reed}
        agents:
          - {id: bot, token_env: T, providers: [billling-api]}
        """);

    CliRun r = run("config", "check", file.toString());

    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.out()).isEmpty();
    assertThat(r.err().lines().toList()).containsExactly(
        file + ":2:10: request_classes.read.max_atempts: unknown key 'max_atempts'; did you mean 'max_attempts'?",
        file + ":8:43: providers.billing-api.routes[0].class: request class 'reed' is not defined; did you mean 'read'? "
            + "(defined: read, uncertain_write)",
        file + ":10:41: agents[0].providers[0]: provider 'billling-api' is not defined; did you mean 'billing-api'? (defined: billing-api)",
        "3 problems in " + file);
  }

  @Test
  void aMissingFileIsOneClearLine() {
    Path missing = dir.resolve("nope.yaml");

    CliRun r = run("config", "check", missing.toString());

    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.out()).isEmpty();
    assertThat(r.err().lines().toList()).containsExactly("sluice config check: no such file: " + missing);
  }

  @Test
  void aYamlSyntaxErrorIsOneLineWithItsPosition() throws Exception {
    Path file = dir.resolve("broken.yaml");
    Files.writeString(file, "providers:\n  a: {base_url: x\n");

    CliRun r = run("config", "check", file.toString());

    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.err().lines().toList()).hasSize(2);
    assertThat(r.err().lines().findFirst().orElseThrow()).startsWith(file + ":3:1: YAML syntax error: ");
  }

  @Test
  void aSecretIsNeverPrinted() throws Exception {
    Path file = dir.resolve("leaky.yaml");
    Files.writeString(file, """
        providers:
          a:
            base_url: https://api.example.com
            credential: {format: "Bearer sk-CANARY-123", secret_env: "sk-CANARY-456"}
        """);

    CliRun r = run("config", "check", file.toString());

    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.out() + r.err()).doesNotContain("CANARY").contains("credential.format").contains("credential.secret_env");
  }

  @Test
  void helpExplainsTheCommand() {
    CliRun r = run("config", "check", "--help");

    assertThat(r.exit()).isZero();
    assertThat(r.out()).contains("Usage: sluice config check").contains("FILE").contains("FILE:LINE:COL: path: message")
        .contains("Exit status: 0 when the file is valid, 2");
  }

  @Test
  void configAloneListsItsSubcommands() {
    CliRun r = run("config");

    assertThat(r.exit()).isZero();
    assertThat(r.out()).contains("Usage: sluice config").contains("check");
  }

  @Test
  void aMissingFileArgumentIsAUsageError() {
    CliRun r = run("config", "check");

    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.err()).contains("Missing required parameter: 'FILE'").contains("Try 'sluice config check --help'.");
  }

  @Test
  void theTopLevelHelpListsConfig() {
    CliRun r = run("--help");

    assertThat(r.out()).contains("config");
  }
}
