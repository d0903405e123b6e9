package dev.sluice.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.fake.Attempt;
import dev.sluice.fake.FakeProvider;
import dev.sluice.fake.Fault;
import dev.sluice.fake.FaultRule;
import dev.sluice.fake.StoredRecord;
import dev.sluice.store.sqlite.SqliteJournal;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The gateway on a real journal (SQLite in a temporary data_dir) and audit log, restarted on the
 * same directory: action ids are the journal's, a Location outlives the process, start-up recovery
 * does not hold the listener, a graceful stop finishes what is in flight and leaves the queue to
 * the next start, an uncertain write is reconciled, and refused tokens are audited. Counted at the
 * fake provider, which outlives every gateway.
 */
class DurableGatewayTest {
  static final String ROUTES = """
      idempotency_header: Idempotency-Key
      shared_scope: {max_concurrent_requests: 1}
      routes:
        - {method: POST, path: "/v1/transfers", class: idempotent_write,
           lookup: {method: GET, path: "/v1/transfers?idempotency_key={idempotency_key}"}}
        - {method: GET, path: "/v1/invoices/{id}", class: read}
      """;
  static final Duration WAIT = Duration.ofSeconds(30);

  @TempDir Path dir;

  private GatewayHarness harness(FakeProvider.Builder fake, GatewayHarness.Options options) {
    return new GatewayHarness(fake, ROUTES, "", options.dataDir(dir.resolve("data")));
  }

  private static HttpRequest.Builder transfer(GatewayHarness h, String key, String task) {
    return HttpRequest.newBuilder(h.uri("/api/v1/transfers")).timeout(WAIT).header("Authorization", "Bearer " + GatewayHarness.AGENT_TOKEN)
        .header("Content-Type", "application/json").header("Idempotency-Key", key).header("Sluice-Task", task)
        .POST(HttpRequest.BodyPublishers.ofString("{\"amount\": 5}"));
  }

  private static HttpRequest.Builder agentGet(GatewayHarness h, String path) {
    return HttpRequest.newBuilder(h.uri(path)).timeout(WAIT).header("Authorization", "Bearer " + GatewayHarness.AGENT_TOKEN);
  }

  private static List<Attempt> posts(FakeProvider fake) {
    return fake.attempts().stream().filter(a -> a.method().equals("POST")).toList();
  }

  @Test
  void theActionIdIsTheJournalsAndItsLocationAnswersFromTheJournalAfterARestart() {
    try (GatewayHarness h = harness(FakeProvider.builder(), GatewayHarness.Options.defaults())) {
      HttpResponse<String> r = h.send(transfer(h, "k-1", "pay"));
      assertThat(r.statusCode()).isEqualTo(201);
      String id = r.headers().firstValue("Sluice-Action-Id").orElseThrow();
      assertThat(id).as("a ULID, the journal's ActionId").matches("[0-9A-HJKMNP-TV-Z]{26}");
      assertThat(h.gateway.sluice().action(dev.sluice.core.journal.ActionId.of(id))).isPresent();

      h.restart();
      HttpResponse<String> after = h.send(agentGet(h, "/v1/actions/" + id));
      assertThat(after.statusCode()).isEqualTo(200);
      assertThat(after.headers().firstValue("Content-Type")).hasValueSatisfying(ct -> assertThat(ct).startsWith("application/json"));
      assertThat(after.body()).contains("\"id\":\"" + id + "\"", "\"task\":\"pay\"", "\"agent\":\"bot\"", "\"state\":\"done\"",
          "\"journal_state\":\"succeeded\"", "\"outcome\":\"succeeded\"", "\"attempts\":1", "\"last_status\":201", "\"response_body_kept\":false");
      // Another agent cannot read it, even from the journal.
      HttpResponse<String> other = h.send(HttpRequest.newBuilder(h.uri("/v1/actions/" + id)).header("Authorization", "Bearer " + GatewayHarness.AGENT2_TOKEN));
      assertThat(other.statusCode()).isEqualTo(404);
      assertThat(h.fake.records("transfers")).hasSize(1);
      assertThat(posts(h.fake)).hasSize(1);
    }
  }

  @Test
  void aGracefulStopFinishesTheAttemptInFlightAndTheNextGatewayResumesTheQueueEachWriteReachingTheFakeOnce() throws Exception {
    FakeProvider.Builder fake = FakeProvider.builder().fault(FaultRule.of(Fault.hold()).method("POST").nth(1));
    try (GatewayHarness h = harness(fake, GatewayHarness.Options.defaults())) {
      // A: in flight, held by the provider. B: queued behind it (one at a time), answered 202 at once.
      // C: queued, its agent waiting on the open connection.
      CompletableFuture<HttpResponse<String>> a = CompletableFuture.supplyAsync(() -> h.send(transfer(h, "k-a", "a")));
      assertThat(h.fake.awaitHeld(1, WAIT)).isTrue();
      HttpResponse<String> b = h.send(transfer(h, "k-b", "b").header("Prefer", "respond-async"));
      assertThat(b.statusCode()).isEqualTo(202);
      String locationB = b.headers().firstValue("Location").orElseThrow();
      CompletableFuture<HttpResponse<String>> c = CompletableFuture.supplyAsync(() -> h.send(transfer(h, "k-c", "c")));
      awaitTrue(() -> h.get("/v1/tasks/c", GatewayHarness.OPERATOR_TOKEN).statusCode() == 200);

      CompletableFuture<Void> closing = CompletableFuture.runAsync(h.gateway::close);
      awaitTrue(() -> h.get("/readyz", null).statusCode() == 503);
      HttpResponse<String> late = h.send(agentGet(h, "/api/v1/invoices/inv_1"));
      assertThat(late.statusCode()).isEqualTo(503);
      assertThat(late.body()).contains("gateway_stopping", "\"request_sent\":false");
      assertThat(closing).as("the stop waits for the attempt in flight").isNotDone();

      h.fake.releaseHeld();
      closing.get(WAIT.toSeconds(), TimeUnit.SECONDS);
      HttpResponse<String> answerA = a.get(WAIT.toSeconds(), TimeUnit.SECONDS);
      assertThat(answerA.statusCode()).as("the attempt in flight finished and its agent got the answer").isEqualTo(201);
      HttpResponse<String> answerC = c.get(WAIT.toSeconds(), TimeUnit.SECONDS);
      assertThat(answerC.statusCode()).isEqualTo(503);
      assertThat(answerC.headers().firstValue("x-should-retry")).hasValue("false");
      assertThat(answerC.headers().firstValue("Retry-After")).as("a journaled write is not to be repeated").isEmpty();
      assertThat(answerC.body()).contains("\"type\":\"https://sluice.dev/problems/gateway_stopping\"", "\"journaled\":true", "do not send it again");
      String locationC = answerC.headers().firstValue("Location").orElseThrow();
      assertThat(posts(h.fake)).extracting(p -> p.idempotencyKey().orElseThrow()).containsExactly("k-a");

      h.gateway = h.startGateway(); // the next start on the same data_dir
      HttpResponse<String> doneB = h.send(agentGet(h, locationB).header("Prefer", "wait=20"));
      HttpResponse<String> doneC = h.send(agentGet(h, locationC).header("Prefer", "wait=20"));
      assertThat(doneB.statusCode()).isEqualTo(201);
      assertThat(doneC.statusCode()).isEqualTo(201);
      assertThat(doneC.body()).as("resumed in this process: the provider's answer, body included").contains("\"amount\"");
      String idC = locationC.substring(locationC.lastIndexOf('/') + 1);
      assertThat(h.send(agentGet(h, "/v1/tasks/c")).body()).as("the task view lists the resumed action").contains("\"id\":\"" + idC + "\"");
      assertThat(posts(h.fake)).extracting(p -> p.idempotencyKey().orElseThrow()).containsExactly("k-a", "k-b", "k-c");
      assertThat(h.fake.records("transfers")).extracting(StoredRecord::idempotencyKey)
          .containsExactlyInAnyOrder(java.util.Optional.of("k-a"), java.util.Optional.of("k-b"), java.util.Optional.of("k-c"));
    }
  }

  @Test
  void theListenerBindsBeforeRecoveryAndReadyzSaysNotReadyUntilTheJournalIsResumed() throws Exception {
    Files.createDirectories(dir.resolve("data"));
    BlockingJournal journal = new BlockingJournal(SqliteJournal.open(dir.resolve("data")));
    try (GatewayHarness h = harness(FakeProvider.builder(), GatewayHarness.Options.defaults().sluice(b -> b.journal(journal)).bindOnly())) {
      assertThat(journal.reading.await(WAIT.toSeconds(), TimeUnit.SECONDS)).isTrue(); // recovery is under way, and stuck
      assertThat(h.get("/healthz", null).statusCode()).isEqualTo(200);
      HttpResponse<String> ready = h.get("/readyz", null);
      assertThat(ready.statusCode()).isEqualTo(503);
      assertThat(ready.body()).contains("resuming");
      HttpResponse<String> early = h.send(agentGet(h, "/api/v1/invoices/inv_1"));
      assertThat(early.statusCode()).isEqualTo(503);
      assertThat(early.headers().firstValue("Retry-After")).hasValue("1");
      assertThat(early.body()).contains("\"type\":\"https://sluice.dev/problems/not_ready\"", "\"request_sent\":false");
      assertThat(h.fake.attempts()).isEmpty();

      journal.release();
      h.gateway.ready().get(WAIT.toSeconds(), TimeUnit.SECONDS);
      assertThat(h.get("/readyz", null).statusCode()).isEqualTo(200);
      assertThat(h.send(agentGet(h, "/api/v1/invoices/inv_1")).statusCode()).isEqualTo(200);
      assertThat(h.fake.attempts()).hasSize(1);
    } finally {
      journal.close();
    }
  }

  @Test
  void aMissingOrWrongTokenIsAuditedWithoutItsValue() throws IOException {
    try (GatewayHarness h = harness(FakeProvider.builder(), GatewayHarness.Options.defaults())) {
      assertThat(h.get("/api/v1/invoices/inv_1", null).statusCode()).isEqualTo(401);
      assertThat(h.get("/api/v1/invoices/inv_1", "wrong-token-value-zzz-123").statusCode()).isEqualTo(401);
      assertThat(h.get("/v1/scopes", GatewayHarness.SECRET).statusCode()).isEqualTo(401);
      assertThat(h.get("/v1/scopes", GatewayHarness.AGENT_TOKEN).statusCode()).isEqualTo(401);
      assertThat(h.fake.attempts()).isEmpty();
    }
    String audit;
    try (Stream<Path> files = Files.walk(dir.resolve("data").resolve("audit"))) {
      audit = files.filter(Files::isRegularFile).map(DurableGatewayTest::read).collect(Collectors.joining("\n"));
    }
    assertThat(audit.lines().filter(l -> l.contains("gateway_auth_refused")).toList()).hasSize(4)
        .anySatisfy(l -> assertThat(l).contains("\"reason\":\"missing_token\"", "\"endpoint\":\"agent\"", "\"target\":\"api\""))
        .anySatisfy(l -> assertThat(l).contains("\"reason\":\"unknown_token\"", "\"endpoint\":\"agent\""))
        .anySatisfy(l -> assertThat(l).contains("\"reason\":\"unknown_token\"", "\"endpoint\":\"admin\""))
        .anySatisfy(l -> assertThat(l).contains("\"reason\":\"agent_token_not_allowed\"", "\"endpoint\":\"admin\""));
    assertThat(audit).doesNotContain("wrong-token-value-zzz-123").doesNotContain(GatewayHarness.SECRET).doesNotContain(GatewayHarness.AGENT_TOKEN);
  }

  private static String read(Path p) {
    try {
      return Files.readString(p);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void awaitTrue(BooleanSupplier condition) throws InterruptedException {
    long end = System.nanoTime() + WAIT.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > end) {
        throw new AssertionError("condition not met within " + WAIT);
      }
      Thread.sleep(20);
    }
  }
}
