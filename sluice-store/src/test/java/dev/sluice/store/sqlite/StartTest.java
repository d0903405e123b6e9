package dev.sluice.store.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.core.Call;
import dev.sluice.core.Sluice;
import dev.sluice.core.Submission;
import dev.sluice.core.classify.AttemptResult;
import dev.sluice.core.engine.OutcomeCode;
import dev.sluice.core.engine.Transport;
import dev.sluice.core.http.Headers;
import dev.sluice.core.journal.ActionState;
import dev.sluice.core.policy.PolicyLoader;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link Sluice#start}: the journal id comes back before the send ends, and names the action durably. */
class StartTest {
  private static final String POLICY = """
      providers:
        a:
          base_url: http://127.0.0.1:9
          routes:
            - {method: GET, path: "/docs/{id}", class: read, immutable: true}
      """;

  @Test
  void theIdNamesTheActionWhileItRunsAndAfterARestart(@TempDir Path dir) throws Exception {
    var policy = PolicyLoader.parse(POLICY, "p.yaml");
    CompletableFuture<AttemptResult> answer = new CompletableFuture<>();
    CountDownLatch sent = new CountDownLatch(1);
    Transport held = r -> {
      sent.countDown();
      return answer;
    };
    Submission sub;
    try (SqliteJournal journal = SqliteJournal.open(dir);
        Sluice s = Sluice.builder().policy(policy).journal(journal).transport(held).build()) {
      sub = s.start(Call.builder("a", "POST", "/orders").task("t1").body("{}").build());
      assertThat(sub.actionId()).isPresent();
      var id = sub.actionId().get();
      assertThat(sent.await(10, TimeUnit.SECONDS)).isTrue();
      assertThat(s.pending(id)).containsSame(sub.outcome());
      assertThat(s.action(id).orElseThrow().state()).isEqualTo(ActionState.IN_FLIGHT);
      assertThat(s.attempts(id)).hasSize(1);

      answer.complete(new AttemptResult.Response(201, Headers.empty()));
      assertThat(sub.outcome().get(10, TimeUnit.SECONDS).outcome()).isEqualTo(OutcomeCode.SUCCEEDED);
      assertThat(s.pending(id)).isEmpty();
      assertThat(s.action(id).orElseThrow().state()).isEqualTo(ActionState.SUCCEEDED);
    }
    try (SqliteJournal journal = SqliteJournal.open(dir);
        Sluice again = Sluice.builder().policy(policy).journal(journal).transport(held).build()) {
      var r = again.action(sub.actionId().get()).orElseThrow();
      assertThat(r.state()).isEqualTo(ActionState.SUCCEEDED);
      assertThat(r.lastStatus()).hasValue(201);
      assertThat(again.pending(sub.actionId().get())).isEmpty();
    }
  }

  @Test
  void refusedCallsAndImmutableReadsHaveNoId(@TempDir Path dir) throws Exception {
    var policy = PolicyLoader.parse(POLICY, "p.yaml");
    Transport ok = r -> CompletableFuture.completedFuture(new AttemptResult.Response(200, Headers.empty()));
    try (SqliteJournal journal = SqliteJournal.open(dir);
        Sluice s = Sluice.builder().policy(policy).journal(journal).transport(ok).build()) {
      Submission unknown = s.start(Call.get("nope", "/x", "t1"));
      assertThat(unknown.actionId()).isEmpty();
      assertThat(unknown.outcome().get(10, TimeUnit.SECONDS).outcome()).isEqualTo(OutcomeCode.REFUSED);

      Submission immutable = s.start(Call.get("a", "/docs/7", "t1"));
      assertThat(immutable.actionId()).isEmpty();
      assertThat(immutable.outcome().get(10, TimeUnit.SECONDS).outcome()).isEqualTo(OutcomeCode.SUCCEEDED);

      Submission read = s.start(Call.get("a", "/other", "t1"));
      assertThat(read.actionId()).isPresent();
      assertThat(read.outcome().get(10, TimeUnit.SECONDS).outcome()).isEqualTo(OutcomeCode.SUCCEEDED);
      assertThat(s.action(read.actionId().get()).orElseThrow().state()).isEqualTo(ActionState.SUCCEEDED);
    }
  }
}
