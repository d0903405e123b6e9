package dev.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

/** {@code sluice fake-provider}: documented options, one-line user errors, a real server until stopped. */
class FakeProviderCommandTest {

  @TempDir
  Path dir;

  final StringWriter out = new StringWriter();
  final StringWriter err = new StringWriter();

  CommandLine cli() {
    CommandLine cli = SluiceCli.commandLine();
    cli.setOut(new PrintWriter(out, true));
    cli.setErr(new PrintWriter(err, true));
    return cli;
  }

  @Test
  void helpDocumentsEveryOption() {
    CommandLine cli = cli();
    assertThat(cli.execute("fake-provider", "--help")).isZero();
    String help = out.toString();
    CommandLine.Model.CommandSpec sub = cli.getSubcommands().get("fake-provider").getCommandSpec();
    assertThat(sub.options()).hasSizeGreaterThanOrEqualTo(11);
    for (OptionSpec o : sub.options()) {
      assertThat(help).contains(o.longestName());
      assertThat(String.join(" ", o.description())).as(o.longestName()).isNotBlank();
    }
    assertThat(help).contains("--port", "--host", "--config", "--inspect", "--dialect", "--rate", "--burst",
        "--retry-after-format", "--scope-by", "Ctrl-C");
  }

  @Test
  void theTopLevelHelpListsTheCommand() {
    assertThat(cli().execute("--help")).isZero();
    assertThat(out.toString()).contains("fake-provider");
  }

  @Test
  void aBadConfigFileIsOneLineNamingFileKeyAndExpectationAndExits2() throws IOException {
    Path f = dir.resolve("fake.yaml");
    Files.writeString(f, "quota: {requests: 10, burst: ten}\n");
    assertThat(cli().execute("fake-provider", "--port", "0", "--config", f.toString())).isEqualTo(2);
    assertThat(err.toString()).isEqualTo("sluice fake-provider: " + f + ": quota.burst: expected an integer, got 'ten'"
        + System.lineSeparator());
    assertThat(out.toString()).isEmpty();
  }

  @Test
  void aMissingConfigFileExits2() {
    Path f = dir.resolve("nope.yaml");
    assertThat(cli().execute("fake-provider", "--config", f.toString())).isEqualTo(2);
    assertThat(err.toString()).startsWith("sluice fake-provider: " + f + ": cannot read the file").doesNotContain("Exception:");
  }

  @Test
  void aBadFlagValueExits2() {
    assertThat(cli().execute("fake-provider", "--dialect", "klingon")).isEqualTo(2);
    assertThat(err.toString()).contains("--dialect: expected one of ietf, legacy, openai, anthropic, github, none; got 'klingon'");
    err.getBuffer().setLength(0);
    assertThat(cli().execute("fake-provider", "--rate", "0")).isEqualTo(2);
    assertThat(err.toString()).contains("--rate/--burst: quota requests must be at least 1, got 0");
  }

  @Test
  void itServesUntilStoppedAndFlagsOverrideTheFile() throws Exception {
    Path f = dir.resolve("fake.yaml");
    Files.writeString(f, "dialect: legacy\nquota: {requests: 50}\n");
    CommandLine cli = cli();
    FakeProviderCommand command = cli.getSubcommands().get("fake-provider").getCommand();
    AtomicReference<HttpResponse<String>> seen = new AtomicReference<>();
    AtomicReference<HttpResponse<String>> inspected = new AtomicReference<>();
    command.onStarted = fake -> {
      try {
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        URI base = fake.baseUri();
        seen.set(http.send(HttpRequest.newBuilder(base.resolve("/records")).build(), HttpResponse.BodyHandlers.ofString()));
        inspected.set(http.send(HttpRequest.newBuilder(base.resolve("/__fake/attempts")).build(), HttpResponse.BodyHandlers.ofString()));
      } catch (IOException | InterruptedException e) {
        throw new AssertionError(e);
      } finally {
        fake.close();
      }
    };
    int code = cli.execute("fake-provider", "--port", "0", "--config", f.toString(), "--dialect", "github",
        "--burst", "7", "--inspect");
    assertThat(code).as(err.toString()).isZero();
    assertThat(out.toString()).containsPattern("listening on http://127\\.0\\.0\\.1:\\d+")
        .contains("quota: 50 requests per 1 s, burst 7", "headers: github", "/__fake");
    assertThat(seen.get().statusCode()).isEqualTo(200);
    assertThat(seen.get().headers().firstValue("x-ratelimit-limit")).hasValue("7");
    assertThat(inspected.get().statusCode()).isEqualTo(200);
    assertThat(inspected.get().body()).contains("\"path\":\"/records\"");
  }
}
