package dev.sluice.store.sqlite;

import dev.sluice.core.journal.ActionChanges;
import dev.sluice.core.journal.ActionRecord;
import dev.sluice.core.journal.ActionState;
import dev.sluice.core.journal.AttemptKind;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Instant;

/**
 * The process {@link CrashTest} kills: records write actions in a loop and prints a line after each
 * journal call returns, so the parent knows exactly what the journal has promised.
 *
 * <p>Arguments: {@code dataDir keyPrefix stopAfter}. It prints {@code RECORDED id key} when {@code
 * recordAction} returned and {@code SENT id attempt} when the action is in flight with its first
 * attempt started. After {@code stopAfter} actions (0: never) it prints {@code READY} and waits
 * to be killed, right after the last {@code recordAction} returned. It never exits on its own
 * before 100,000 actions.
 */
public final class CrashWriter {
  private CrashWriter() {}

  public static void main(String[] args) throws Exception {
    Path dataDir = Path.of(args[0]);
    String prefix = args[1];
    int stopAfter = Integer.parseInt(args[2]);
    PrintStream out = System.out;
    SqliteJournal journal = SqliteJournal.open(dataDir);
    for (int i = 1; i <= 100_000; i++) {
      Instant now = Fixtures.T0.plusMillis(i);
      String key = prefix + "-" + i;
      ActionRecord a = journal.recordAction(Fixtures.transfer("crash-task", key).build());
      out.println("RECORDED " + a.actionId() + " " + key);
      out.flush();
      if (i == stopAfter) {
        out.println("READY");
        out.flush();
        // Block until killed: the kill lands right after recordAction returned.
        System.in.read();
        return;
      }
      journal.transition(a.actionId(), ActionState.QUEUED, ActionState.IN_FLIGHT, ActionChanges.none(), now);
      int n = journal.startAttempt(a.actionId(), AttemptKind.SEND, now, a.idempotencyKey()).number();
      out.println("SENT " + a.actionId() + " " + n);
      out.flush();
    }
  }
}
