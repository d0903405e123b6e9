package dev.sluice.acceptance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.core.journal.ActionRecord;
import dev.sluice.core.journal.ActionState;
import dev.sluice.fake.Attempt;
import dev.sluice.fake.FakeProvider;
import dev.sluice.fake.Fault;
import dev.sluice.fake.FaultRule;
import dev.sluice.store.sqlite.SqliteJournal;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The seed's restart test, with Sluice in a separate JVM on a file-backed SQLite journal: the
 * process dies (SIGKILL, or an immediate halt) at each journaled step of a transfer's life, a new
 * process starts on the same data directory, and the fake provider — which outlives both — ends
 * with exactly one transfer, every POST having carried the one key minted before the first send.
 */
class RestartAtTheFakeProviderTest {
  private static final Duration WAIT = Duration.ofSeconds(30);

  @TempDir Path dir;

  @Test
  void killedAfterTheAttemptWasJournaledButBeforeAByteLeftTheNextProcessFindsNoRecordAndSendsWithTheSameKey() throws Exception {
    try (FakeProvider fake = FakeProvider.builder().start()) {
      Process first = child(fake, "halt-at-send");
      assertThat(first.waitFor(WAIT.toSeconds(), TimeUnit.SECONDS)).isTrue();
      assertThat(first.exitValue()).isEqualTo(137);
      assertThat(fake.attempts()).isEmpty();
      String key = journaledKey();

      List<String> out = resume(fake);
      // Three attempts: the journaled send (the process cannot know it never left, so it counts),
      // the look-up that found nothing, and the resend with the same key.
      assertThat(out).contains("RECOVERED 1", "OUTCOME succeeded reconciled=false attempts=3");
      assertThat(fake.attempts()).extracting(a -> a.method() + " " + a.status()).containsExactly("GET 200", "POST 201");
      assertOneTransferWithKey(fake, key);
    }
  }

  @Test
  void killedWhileTheProviderHeldTheSendTheNextProcessLooksItUpAndFindsTheTransfer() throws Exception {
    try (FakeProvider fake = FakeProvider.builder().fault(FaultRule.of(Fault.hold()).method("POST")).start()) {
      Process first = child(fake, "submit");
      assertThat(fake.awaitHeld(1, WAIT)).isTrue();
      first.destroyForcibly().waitFor(); // SIGKILL with the request at the provider
      fake.releaseHeld(); // the provider commits; nobody hears the answer
      awaitTrue(() -> fake.records("transfers").size() == 1);
      String key = journaledKey();

      List<String> out = resume(fake);
      assertThat(out).contains("RECOVERED 1", "OUTCOME succeeded reconciled=true attempts=2");
      assertThat(fake.attempts()).extracting(Attempt::method).containsExactly("POST", "GET");
      assertOneTransferWithKey(fake, key);
    }
  }

  @Test
  void killedAfterA429AnswerTheNextProcessResumesWithTheSameKeyAndCreatesOneTransfer() throws Exception {
    FakeProvider.Builder b = FakeProvider.builder().fault(FaultRule.of(Fault.rateLimited(Duration.ofSeconds(1))).method("POST"));
    try (FakeProvider fake = b.start()) {
      Process first = child(fake, "submit");
      awaitTrue(() -> fake.attempts().stream().anyMatch(a -> a.status() == 429));
      // The kill lands wherever the child is: before or after the answer was journaled, both safe.
      first.destroyForcibly().waitFor();
      String key = journaledKey();

      List<String> out = resume(fake);
      assertThat(out).contains("RECOVERED 1").anyMatch(l -> l.startsWith("OUTCOME succeeded"));
      assertOneTransferWithKey(fake, key);
    }
  }

  @Test
  void killedDuringTheReconciliationLookUpTheNextProcessLooksUpAgainWithTheOriginalKey() throws Exception {
    FakeProvider.Builder b = FakeProvider.builder().fault(FaultRule.of(Fault.dropAfterCommit()).method("POST"))
        .fault(FaultRule.of(Fault.hold()).method("GET"));
    try (FakeProvider fake = b.start()) {
      Process first = child(fake, "submit");
      assertThat(fake.awaitHeld(1, WAIT)).isTrue(); // the look-up is at the provider
      first.destroyForcibly().waitFor();
      fake.releaseHeld();
      String key = journaledKey();

      List<String> out = resume(fake);
      assertThat(out).contains("RECOVERED 1", "OUTCOME succeeded reconciled=true attempts=2");
      List<Attempt> seen = fake.attempts();
      assertThat(seen).extracting(Attempt::method).containsExactly("POST", "GET", "GET");
      assertThat(seen.get(2).query()).isEqualTo("idempotency_key=" + key);
      assertOneTransferWithKey(fake, key);
    }
  }

  private void assertOneTransferWithKey(FakeProvider fake, String key) {
    assertThat(fake.records("transfers")).singleElement().satisfies(r -> assertThat(r.idempotencyKey()).contains(key));
    assertThat(fake.attempts()).filteredOn(a -> a.method().equals("POST")).allSatisfy(a -> assertThat(a.idempotencyKey()).contains(key));
    try (SqliteJournal journal = SqliteJournal.open(dir.resolve("data"))) {
      assertThat(journal.openActions()).isEmpty();
      assertThat(journal.actionByIdempotencyKey("api", key)).get().extracting(ActionRecord::state).isEqualTo(ActionState.SUCCEEDED);
    }
  }

  /** The key of the one action the first process journaled. */
  private String journaledKey() {
    try (SqliteJournal journal = SqliteJournal.open(dir.resolve("data"))) {
      List<ActionRecord> open = journal.openActions();
      assertThat(open).hasSize(1);
      return open.get(0).idempotencyKey().orElseThrow();
    }
  }

  private List<String> resume(FakeProvider fake) throws Exception {
    Process p = child(fake, "resume");
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("the resuming process ends").isTrue();
    List<String> out = Files.readAllLines(dir.resolve("resume.out"));
    assertThat(p.exitValue()).as("exit of the resuming process; output: %s", out).isZero();
    return out;
  }

  private Process child(FakeProvider fake, String mode) throws IOException {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    String classpath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    ProcessBuilder pb = new ProcessBuilder(java, "--enable-native-access=ALL-UNNAMED", "-cp", classpath, RestartChild.class.getName(),
        dir.resolve("data").toString(), fake.baseUri().toString(), mode);
    pb.redirectOutput(dir.resolve(mode.equals("resume") ? "resume.out" : "first.out").toFile());
    pb.redirectError(dir.resolve(mode + ".err").toFile());
    return pb.start();
  }

  private static void awaitTrue(BooleanSupplier condition) throws InterruptedException {
    long end = System.nanoTime() + WAIT.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > end) {
        throw new AssertionError("condition not met within " + WAIT);
      }
      Thread.sleep(10);
    }
  }
}
