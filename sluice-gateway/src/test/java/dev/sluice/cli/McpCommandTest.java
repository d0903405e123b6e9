package dev.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.core.Sluice;
import dev.sluice.core.policy.PolicyLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code sluice mcp}'s user errors: one line on stderr, exit 2, nothing on stdout (the protocol stream). */
class McpCommandTest {
  @TempDir Path dir;

  private Path policy(String agents) throws Exception {
    Path file = dir.resolve("sluice.yaml");
    Files.writeString(file, """
        data_dir: "%s"
        providers:
          api:
            base_url: http://127.0.0.1:9
        %s""".formatted(dir.resolve("data").toString().replace("\\", "/"), agents));
    return file;
  }

  private static void oneLine(CliRun r, String... contains) {
    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.out()).isEmpty();
    assertThat(r.err().strip().lines()).hasSize(1);
    assertThat(r.err()).startsWith("sluice mcp: ").contains(contains);
  }

  @Test
  void aMissingPolicyFileIsOneLine() {
    oneLine(CliRun.of("mcp", "--config", dir.resolve("nope.yaml").toString()), "nope.yaml", "no such file");
  }

  @Test
  void anInvalidPolicyNamesTheFileAndThePath() throws Exception {
    Path file = dir.resolve("bad.yaml");
    Files.writeString(file, "providers:\n  api:\n    base_url: 12\n");
    CliRun r = CliRun.of("mcp", "--config", file.toString());
    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.out()).isEmpty();
    assertThat(r.err()).contains("bad.yaml").contains("providers.api.base_url");
  }

  @Test
  void anUnknownAgentListsTheAgents() throws Exception {
    Path file = policy("agents:\n  - {id: bot, token_env: BOT_TOKEN, providers: [api]}\n");
    oneLine(CliRun.of("mcp", "--config", file.toString(), "--agent", "ghost"), "--agent ghost", "[bot]");
  }

  @Test
  void severalAgentsNeedAChoice() throws Exception {
    Path file = policy("agents:\n  - {id: bot, token_env: BOT_TOKEN, providers: [api]}\n  - {id: ops, token_env: OPS_TOKEN, providers: [api]}\n");
    oneLine(CliRun.of("mcp", "--config", file.toString()), "2 agents", "bot, ops", "--agent ID");
  }

  @Test
  void aDataDirHeldByAnotherSluiceIsOneLine() throws Exception {
    Path file = policy("");
    try (Sluice holder = Sluice.builder().policy(PolicyLoader.load(file)).secrets(n -> Optional.empty()).journalFromPolicy().build()) {
      CliRun r = CliRun.of("mcp", "--config", file.toString());
      oneLine(r, "data");
    }
  }

  @Test
  void helpNamesTheToolsAndTheHttpEndpoint() {
    CliRun r = CliRun.of("mcp", "--help");
    assertThat(r.exit()).isZero();
    assertThat(r.out()).contains("http_request").contains("/mcp").contains("--agent").contains("--max-body-bytes");
  }
}
