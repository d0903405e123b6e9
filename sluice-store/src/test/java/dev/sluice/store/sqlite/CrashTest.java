package dev.sluice.store.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.core.journal.ActionId;
import dev.sluice.core.journal.ActionRecord;
import dev.sluice.core.journal.ActionState;
import dev.sluice.core.journal.AttemptRecord;
import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.RepetitionInfo;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A separate JVM records write actions and is killed with SIGKILL; the parent reopens the database
 * and finds everything the journal had promised. (SIGKILL proves the commit left the process; the
 * power-loss half of the guarantee rests on synchronous=FULL, see decision 0004.)
 */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class CrashTest {
  @TempDir Path dataDir;

  @RepeatedTest(3)
  void aWriteActionRecordedJustBeforeSigkillIsFoundWithItsKey(RepetitionInfo rep) throws Exception {
    int stopAfter = 1 + new Random(42 + rep.getCurrentRepetition()).nextInt(5);
    Process child = start("ready-" + rep.getCurrentRepetition(), stopAfter);
    Map<ActionId, String> recorded = new LinkedHashMap<>();
    List<ActionId> sent = new ArrayList<>();
    try (BufferedReader lines = reader(child)) {
      readUntil(lines, "READY", recorded, sent);
      child.destroyForcibly();
      assertThat(child.waitFor(30, TimeUnit.SECONDS)).isTrue();
    }

    assertThat(recorded).hasSize(stopAfter);
    assertFoundAfterReopen(recorded, sent);
  }

  @RepeatedTest(3)
  void aKillAtAnArbitraryPointLosesNothingTheJournalPromised(RepetitionInfo rep) throws Exception {
    int linesBeforeKill = 5 + new Random(7 * rep.getCurrentRepetition()).nextInt(40);
    Process child = start("loop-" + rep.getCurrentRepetition(), 0);
    Map<ActionId, String> recorded = new LinkedHashMap<>();
    List<ActionId> sent = new ArrayList<>();
    try (BufferedReader lines = reader(child)) {
      for (int i = 0; i < linesBeforeKill; i++) {
        readLine(lines, recorded, sent);
      }
      // The child is still writing: the kill lands wherever it is, possibly inside a commit.
      // (Destroying the process closes our end of its output, so the lines read so far are the
      // promises checked; the ones it wrote after are not, which only makes the check weaker.)
      child.destroyForcibly();
      assertThat(child.waitFor(30, TimeUnit.SECONDS)).isTrue();
    }

    assertFoundAfterReopen(recorded, sent);
  }

  private void assertFoundAfterReopen(Map<ActionId, String> recorded, List<ActionId> sent) {
    try (SqliteJournal journal = SqliteJournal.open(dataDir)) {
      for (Map.Entry<ActionId, String> e : recorded.entrySet()) {
        ActionRecord r = journal.action(e.getKey()).orElseThrow(() -> new AssertionError("lost " + e.getKey()));
        assertThat(r.idempotencyKey()).contains(e.getValue());
        assertThat(r.write()).isTrue();
        assertThat(r.keptPayload()).hasValueSatisfying(p -> assertThat(p).isEqualTo(Fixtures.transfer("x", "y").build().payload()));
        assertThat(journal.actionByIdempotencyKey(Fixtures.BILLING.provider(), e.getValue())).map(ActionRecord::actionId).contains(e.getKey());
      }
      for (ActionId id : sent) {
        assertThat(journal.action(id)).hasValueSatisfying(r -> assertThat(r.state()).isEqualTo(ActionState.IN_FLIGHT));
        List<AttemptRecord> attempts = journal.attempts(id);
        assertThat(attempts).hasSize(1);
        assertThat(attempts.get(0).idempotencyKeySent()).isEqualTo(journal.action(id).orElseThrow().idempotencyKey());
      }
      assertThat(journal.openActions()).extracting(ActionRecord::actionId).containsAll(recorded.keySet());
    }
  }

  private Process start(String keyPrefix, int stopAfter) throws IOException {
    String java = ProcessHandle.current().info().command().orElse(System.getProperty("java.home") + File.separator + "bin" + File.separator + "java");
    String classpath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    ProcessBuilder pb = new ProcessBuilder(java, "--enable-native-access=ALL-UNNAMED", "-cp", classpath, CrashWriter.class.getName(),
        dataDir.toString(), keyPrefix, Integer.toString(stopAfter));
    pb.redirectError(ProcessBuilder.Redirect.DISCARD);
    return pb.start();
  }

  private static BufferedReader reader(Process child) {
    return new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
  }

  private static void readUntil(BufferedReader lines, String marker, Map<ActionId, String> recorded, List<ActionId> sent) throws IOException {
    while (!marker.equals(readLine(lines, recorded, sent))) {
      // keep reading
    }
  }

  private static String readLine(BufferedReader lines, Map<ActionId, String> recorded, List<ActionId> sent) throws IOException {
    String line = lines.readLine();
    if (line == null) {
      throw new AssertionError("the child process ended before it was killed");
    }
    parse(line, recorded, sent);
    return line;
  }

  private static void parse(String line, Map<ActionId, String> recorded, List<ActionId> sent) {
    String[] f = line.split(" ");
    if (f[0].equals("RECORDED") && f.length == 3) {
      recorded.put(ActionId.of(f[1]), f[2]);
    } else if (f[0].equals("SENT") && f.length == 3) {
      sent.add(ActionId.of(f[1]));
    }
  }
}
