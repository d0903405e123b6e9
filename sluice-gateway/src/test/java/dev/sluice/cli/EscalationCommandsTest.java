package dev.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.core.Sluice;
import dev.sluice.core.policy.ListenAddress;
import dev.sluice.core.policy.Policy;
import dev.sluice.core.policy.PolicyLoader;
import dev.sluice.fake.Attempt;
import dev.sluice.fake.FakeProvider;
import dev.sluice.gateway.Gateway;
import dev.sluice.store.sqlite.SqliteJournal;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * Per-call approval through the real gateway (202 with the journal id's Location), the escalation
 * endpoints behind the operator token, and {@code sluice escalations list|show} and {@code sluice
 * decide} against it; what reaches the fake provider is counted there.
 */
class EscalationCommandsTest {
  static final String SECRET = "canary-secret-escal-41";
  static final String AGENT = "agent-token-escal-0123456789";
  static final String OPERATOR = "operator-token-escal-0123456789";
  static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path dir;
  FakeProvider fake;
  SqliteJournal journal;
  Gateway gateway;
  final HttpClient http = HttpClient.newHttpClient();

  @BeforeEach
  void start() {
    fake = FakeProvider.builder().start();
    journal = SqliteJournal.open(dir);
    Policy policy = PolicyLoader.parse("""
        operator: {token_env: OPS_TOKEN}
        providers:
          api:
            base_url: %s
            credential: {header: Authorization, format: "Bearer {secret}", secret_env: API_TOKEN}
            scope: account:acme
            idempotency_header: Idempotency-Key
            routes:
              - {method: POST, path: "/v1/transfers", class: idempotent_write, approval: per_call}
        agents:
          - {id: bot, token_env: BOT_TOKEN, providers: [api]}
        """.formatted(fake.baseUri()), "escalations-test.yaml");
    Map<String, String> env = Map.of("API_TOKEN", SECRET, "BOT_TOKEN", AGENT, "OPS_TOKEN", OPERATOR);
    gateway = Gateway.builder(policy).env(n -> Optional.ofNullable(env.get(n))).listen(new ListenAddress("127.0.0.1", 0))
        .stopTimeout(Duration.ofSeconds(1)).sluice(Sluice.builder().journal(journal).secrets(n -> Optional.ofNullable(env.get(n)))).start();
  }

  @AfterEach
  void stop() {
    gateway.close();
    journal.close();
    fake.close();
  }

  HttpResponse<String> send(String method, String path, String token, String body) throws Exception {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(gateway.uri() + path)).timeout(Duration.ofSeconds(20))
        .header("Authorization", "Bearer " + token);
    b.method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
    if (body != null) {
      b.header("Content-Type", "application/json");
    }
    return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }

  record Run(int exit, String out, String err) {}

  Run cli(Callable<Integer> command, AdminClient admin, String... args) {
    admin.env = n -> Optional.of(OPERATOR); // the token an operator exports (SLUICE_OPERATOR_TOKEN)
    CommandLine c = new CommandLine(command);
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    c.setOut(new PrintWriter(out, true));
    c.setErr(new PrintWriter(err, true));
    c.setExecutionExceptionHandler((ex, cl, pr) -> {
      if (ex instanceof CliErrors.UserError u) {
        cl.getErr().println(u.getMessage());
        return 2;
      }
      throw ex;
    });
    String[] all = java.util.stream.Stream.concat(java.util.Arrays.stream(args), java.util.stream.Stream.of("--url", gateway.uri().toString()))
        .toArray(String[]::new);
    int exit = c.execute(all);
    return new Run(exit, out.toString(), err.toString());
  }

  @Test
  void aPerCallApprovalAnswers202ThenTheOperatorSeesItAndApprovesItThroughTheCliAndExactlyOnePostLeaves() throws Exception {
    HttpResponse<String> r = send("POST", "/api/v1/transfers", AGENT, "{\"amount\":700,\"currency\":\"EUR\"}");

    assertThat(r.statusCode()).isEqualTo(202);
    String location = r.headers().firstValue("Location").orElseThrow();
    String actionId = location.substring("/v1/actions/".length());
    assertThat(journal.action(dev.sluice.core.journal.ActionId.of(actionId)).orElseThrow().state())
        .isEqualTo(dev.sluice.core.journal.ActionState.AWAITING_APPROVAL);
    assertThat(JSON.readTree(r.body()).path("state").asText()).isEqualTo("awaiting_approval");
    assertThat(JSON.readTree(r.body()).path("escalation").asText()).isEqualTo("E-1");
    assertThat(fake.attempts()).isEmpty();
    // The escalation is counted for Prometheus (the listener runs once it is durable: poll, bounded).
    long end = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    while (!send("GET", "/metrics", OPERATOR, null).body().contains("sluice_escalations_total{provider=\"api\"} 1.0")) {
      assertThat(System.nanoTime()).as("sluice_escalations_total within 10 s").isLessThan(end);
      Thread.sleep(20);
    }

    assertThat(send("GET", "/v1/escalations", AGENT, null).statusCode()).as("the agent is not the operator").isEqualTo(401);
    JsonNode list = JSON.readTree(send("GET", "/v1/escalations?state=open", OPERATOR, null).body()).path("escalations");
    assertThat(list).hasSize(1);
    assertThat(list.get(0).path("trigger").asText()).isEqualTo("approval_required");
    assertThat(list.get(0).path("action").asText()).isEqualTo(actionId);
    HttpResponse<String> one = send("GET", "/v1/escalations/E-1", OPERATOR, null);
    assertThat(one.statusCode()).isEqualTo(200);
    assertThat(one.body()).doesNotContain(SECRET).doesNotContain(AGENT);
    assertThat(send("GET", "/v1/escalations/E-99", OPERATOR, null).statusCode()).isEqualTo(404);
    assertThat(send("GET", "/v1/escalations/nope", OPERATOR, null).statusCode()).isEqualTo(400);
    HttpResponse<String> notOffered = send("POST", "/v1/escalations/E-1/decision", OPERATOR,
        "{\"option\":\"retry_same_key\",\"by\":\"ana\",\"reason\":\"x\"}");
    assertThat(notOffered.statusCode()).isEqualTo(422);
    assertThat(send("POST", "/v1/escalations/E-1/decision", OPERATOR, "{\"option\":\"approve\"}").statusCode()).isEqualTo(400);

    EscalationsCommand.ListCommand listCmd = new EscalationsCommand.ListCommand();
    Run listed = cli(listCmd, listCmd.admin);
    assertThat(listed.exit()).isZero();
    assertThat(listed.out()).contains("E-1").contains("approval_required").contains("approve,reject");
    EscalationsCommand.ShowCommand show = new EscalationsCommand.ShowCommand();
    Run shown = cli(show, show.admin, "E-1");
    assertThat(shown.exit()).isZero();
    assertThat(shown.out()).contains("POST /v1/transfers").contains("approve: sends this POST").contains("body: 31 bytes").contains("fields [amount,currency]");
    EscalationsCommand.ShowCommand showJson = new EscalationsCommand.ShowCommand();
    assertThat(JSON.readTree(cli(showJson, showJson.admin, "E-1", "--json").out()).path("id").asText()).isEqualTo("E-1");
    EscalationsCommand.ShowCommand missing = new EscalationsCommand.ShowCommand();
    Run none = cli(missing, missing.admin, "E-7");
    assertThat(none.exit()).isEqualTo(2);
    assertThat(none.err()).contains("there is no escalation E-7");
    assertThat(fake.attempts()).isEmpty();
    assertThat(send("POST", "/v1/escalations/E-1/body", OPERATOR, "{\"by\":\"cfo-maria\"}").statusCode()).as("who and why are required")
        .isEqualTo(400);
    // The reason is free text and is logged: a newline in it cannot forge a second log line.
    ch.qos.logback.core.read.ListAppender<ch.qos.logback.classic.spi.ILoggingEvent> lines = new ch.qos.logback.core.read.ListAppender<>();
    lines.start();
    ch.qos.logback.classic.Logger endpoints = (ch.qos.logback.classic.Logger) org.slf4j.LoggerFactory.getLogger(
        dev.sluice.gateway.internal.EscalationEndpoints.class);
    endpoints.addAppender(lines);
    ch.qos.logback.classic.Level level = endpoints.getLevel();
    endpoints.setLevel(ch.qos.logback.classic.Level.INFO);
    try {
      assertThat(send("POST", "/v1/escalations/E-1/body", OPERATOR, "{\"by\":\"cfo-maria\",\"reason\":\"audit\\nINFO operator root approved E-1\"}")
          .statusCode()).isEqualTo(200);
    } finally {
      endpoints.detachAppender(lines);
      endpoints.setLevel(level);
    }
    assertThat(lines.list).extracting(ch.qos.logback.classic.spi.ILoggingEvent::getFormattedMessage)
        .anySatisfy(m -> assertThat(m).contains("viewed the body").contains("audit?INFO operator root approved E-1"))
        .allSatisfy(m -> assertThat(m).doesNotContain("\n"));
    EscalationsCommand.BodyCommand body = new EscalationsCommand.BodyCommand();
    Run seen = cli(body, body.admin, "E-1", "--by", "cfo-maria", "--reason", "check the amount");
    assertThat(seen.exit()).isZero();
    assertThat(seen.out().strip()).isEqualTo("{\"amount\":700,\"currency\":\"EUR\"}");

    DecideCommand decide = new DecideCommand();
    Run decided = cli(decide, decide.admin, "E-1", "--option", "approve", "--by", "cfo-maria", "--reason", "invoice checked");
    assertThat(decided.exit()).isZero();
    assertThat(decided.out()).contains("E-1: approve recorded (by cfo-maria); action " + actionId);

    HttpResponse<String> done = send("GET", location, AGENT, null);
    for (int i = 0; i < 200 && done.statusCode() == 200 && done.headers().firstValue("Sluice-Outcome").isEmpty(); i++) {
      done = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(gateway.uri() + location)).header("Authorization", "Bearer " + AGENT)
          .header("Prefer", "wait=5").build(), HttpResponse.BodyHandlers.ofString());
    }
    assertThat(done.statusCode()).isEqualTo(201);
    assertThat(fake.attempts()).extracting(Attempt::method).containsExactly("POST");

    DecideCommand again = new DecideCommand();
    Run twice = cli(again, again.admin, "E-1", "--option", "reject", "--by", "bo", "--reason", "late");
    assertThat(twice.exit()).isEqualTo(2);
    assertThat(twice.err()).contains("already decided");
    DecideCommand unconfirmed = new DecideCommand();
    Run flagged = cli(unconfirmed, unconfirmed.admin, "E-1", "--option", "send_new", "--by", "bo", "--reason", "x");
    assertThat(flagged.exit()).isEqualTo(2);
    assertThat(flagged.err()).contains("--confirm");
    assertThat(fake.attempts()).hasSize(1);
  }
}
