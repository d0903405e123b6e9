package dev.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.core.policy.ListenAddress;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The newcomer's first minute: {@code sluice serve} without a config serves examples/sluice.yaml
 * against an in-process fake, prints a curl line that works as printed (a 429 absorbed), and
 * {@code sluice scopes} / {@code sluice cancel} talk to it with the printed operator token.
 */
class ServeCommandTest {
  static final Path EXAMPLE = Path.of("../examples/sluice.yaml");

  @org.junit.jupiter.api.io.TempDir Path dir;

  /** The example as a newcomer gets it, with its data_dir moved into the test's own folder. */
  private Path example() throws java.io.IOException {
    String text = java.nio.file.Files.readString(EXAMPLE);
    assertThat(text).contains("data_dir: ./sluice-data");
    Path copy = dir.resolve("sluice.yaml");
    java.nio.file.Files.writeString(copy, text.replace("data_dir: ./sluice-data", "data_dir: " + dir.resolve("data")));
    return copy;
  }

  @Test
  void theTourPrintsACurlLineThatWorksAndTheAdminCommandsTalkToTheGateway() throws Exception {
    StringWriter text = new StringWriter();
    try (ServeSession s = ServeSession.start(Optional.empty(), example(), Optional.of(new ListenAddress("127.0.0.1", 0)), n -> Optional.empty(),
        new PrintWriter(text, true))) {
      String banner = text.toString();
      Matcher curl = Pattern.compile("curl -i -H 'Authorization: Bearer (\\S+)' (\\S+)").matcher(banner);
      assertThat(curl.find()).as(banner).isTrue();
      HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(curl.group(2)))
          .header("Authorization", "Bearer " + curl.group(1)).timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
      assertThat(r.statusCode()).isEqualTo(200);
      assertThat(r.headers().firstValue("Sluice-Attempts")).hasValue("2");

      Matcher op = Pattern.compile("SLUICE_OPERATOR_TOKEN=(\\S+)").matcher(banner);
      assertThat(op.find()).isTrue();
      Map<String, String> env = Map.of("SLUICE_OPERATOR_TOKEN", op.group(1));
      CliRun scopes = run(env, "scopes", "--url", s.gateway.uri().toString(), "--json");
      assertThat(scopes.exit()).isZero();
      assertThat(scopes.out()).contains("\"provider\":\"billing-api\"", "\"scope\":\"account:ops-team\"", "\"source\"");
      CliRun table = run(env, "scopes", "--url", s.gateway.uri().toString());
      assertThat(table.out()).contains("billing-api", "account:ops-team");
      CliRun cancel = run(env, "cancel", "nothing-pending", "--url", s.gateway.uri().toString());
      assertThat(cancel.exit()).isZero();
      assertThat(cancel.out()).contains("task nothing-pending: 0 pending call(s) cancelled");
      assertThat(run(Map.of(), "scopes", "--url", s.gateway.uri().toString()).exit()).isEqualTo(2);
    }
  }

  @Test
  void aMissingConfigIsOneLineAndExit2() {
    CliRun r = CliRun.of("serve", "--config", "/nonexistent/sluice.yaml", "--listen", "127.0.0.1:0");
    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.err()).contains("cannot read /nonexistent/sluice.yaml").doesNotContain("\tat ");
  }

  private static CliRun run(Map<String, String> env, String... args) {
    picocli.CommandLine cli = SluiceCli.commandLine();
    for (picocli.CommandLine sub : cli.getSubcommands().values()) {
      for (Object mixin : sub.getMixins().values()) {
        if (mixin instanceof AdminClient a) {
          a.env = n -> Optional.ofNullable(env.get(n));
        }
      }
    }
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    cli.setOut(new PrintWriter(out, true));
    cli.setErr(new PrintWriter(err, true));
    int exit = cli.execute(args);
    return new CliRun(exit, out.toString(), err.toString());
  }

  @Test
  void aSecondServeOnTheSameDataDirIsOneClearLineNotAnInternalError() throws Exception {
    Path config = example();
    java.io.PrintWriter quiet = new PrintWriter(new StringWriter(), true);
    try (ServeSession first = ServeSession.start(Optional.empty(), config, Optional.of(new ListenAddress("127.0.0.1", 0)), n -> Optional.empty(), quiet)) {
      org.assertj.core.api.Assertions.assertThatThrownBy(() -> ServeSession.start(Optional.empty(), config,
              Optional.of(new ListenAddress("127.0.0.1", 0)), n -> Optional.empty(), quiet))
          .isInstanceOf(CliErrors.UserError.class)
          .hasMessageContaining("is in use by another Sluice");
    }
  }
}
