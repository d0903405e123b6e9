package dev.sluice.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.fake.FakeProvider;
import dev.sluice.fake.Fault;
import dev.sluice.fake.FaultRule;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * Task ids are per agent: two agents using the same {@code Sluice-Task} share neither cancellation
 * nor task views, and neither can read or cancel the other's actions; the operator sees and
 * cancels both. Counted at the fake provider.
 */
class TaskNamespacesTest {
  static final String ROUTE = "routes:\n  - {method: GET, path: \"/v1/invoices/{id}\", class: read}\n";

  private static HttpResponse<String> call(GatewayHarness h, String token, HttpRequest.Builder b) {
    return h.send(b.header("Authorization", "Bearer " + token).timeout(Duration.ofSeconds(30)));
  }

  @Test
  void twoAgentsWithTheSameTaskNameShareNeitherCancellationNorViews() {
    // The first read gets 429 Retry-After: 30, so both actions wait in the scope's queue.
    FakeProvider.Builder fake = FakeProvider.builder().fault(FaultRule.of(Fault.rateLimited(Duration.ofSeconds(30))).path("/v1/invoices/{id}"));
    try (GatewayHarness h = new GatewayHarness(fake, ROUTE)) {
      HttpResponse<String> mine = call(h, GatewayHarness.AGENT_TOKEN,
          HttpRequest.newBuilder(h.uri("/api/v1/invoices/inv_1")).header("Sluice-Task", "shared").header("Prefer", "respond-async"));
      assertThat(mine.statusCode()).isEqualTo(202);
      // The 429 has been answered and bot's read waits for the scope's hold before bot2 calls.
      awaitWaiting(h, GatewayHarness.AGENT_TOKEN, mine.headers().firstValue("Location").orElseThrow());
      HttpResponse<String> theirs = call(h, GatewayHarness.AGENT2_TOKEN,
          HttpRequest.newBuilder(h.uri("/api/v1/invoices/inv_2")).header("Sluice-Task", "shared").header("Prefer", "respond-async"));
      assertThat(mine.statusCode()).isEqualTo(202);
      assertThat(theirs.statusCode()).isEqualTo(202);
      String myLocation = mine.headers().firstValue("Location").orElseThrow();
      String theirLocation = theirs.headers().firstValue("Location").orElseThrow();

      // Views: each agent sees its own action only; the operator sees both.
      HttpResponse<String> myView = call(h, GatewayHarness.AGENT_TOKEN, HttpRequest.newBuilder(h.uri("/v1/tasks/shared")));
      assertThat(myView.statusCode()).isEqualTo(200);
      assertThat(myView.body()).contains("\"agent\":\"bot\"").doesNotContain("\"agent\":\"bot2\"");
      assertThat(h.get("/v1/tasks/shared", GatewayHarness.OPERATOR_TOKEN).body()).contains("\"agent\":\"bot\"", "\"agent\":\"bot2\"");
      assertThat(call(h, GatewayHarness.AGENT_TOKEN, HttpRequest.newBuilder(h.uri(theirLocation))).statusCode())
          .as("another agent's action is unknown to me").isEqualTo(404);

      // bot cancels its task "shared": bot2's "shared" is untouched.
      HttpResponse<String> cancel = call(h, GatewayHarness.AGENT_TOKEN, HttpRequest.newBuilder(h.uri("/v1/tasks/shared")).DELETE());
      assertThat(cancel.statusCode()).isEqualTo(200);
      assertThat(cancel.body()).contains("\"agents\":[\"bot\"]", "\"cancelled\":1");
      assertThat(call(h, GatewayHarness.AGENT_TOKEN, HttpRequest.newBuilder(h.uri(myLocation))).body()).contains("\"outcome\":\"cancelled\"");
      HttpResponse<String> stillThere = call(h, GatewayHarness.AGENT2_TOKEN, HttpRequest.newBuilder(h.uri(theirLocation)));
      assertThat(stillThere.statusCode()).isEqualTo(200);
      assertThat(stillThere.body()).contains("\"state\":\"waiting\"");

      // The operator may cancel one agent's task by name.
      HttpResponse<String> ops = h.send(HttpRequest.newBuilder(h.uri("/v1/tasks/shared?agent=bot2")).DELETE()
          .header("Authorization", "Bearer " + GatewayHarness.OPERATOR_TOKEN));
      assertThat(ops.body()).contains("\"agents\":[\"bot2\"]", "\"cancelled\":1");
      // Only the first read ever left (the 429); neither waiting read was sent.
      assertThat(h.fake.attempts()).hasSize(1);
    }
  }

  @Test
  void aTaskNameThatNeedsPercentEncodingInTheUrlIsCancelledByItsDecodedName() {
    // Regression (review): DELETE /v1/tasks/nightly%20sync cancelled a task named "nightly%20sync",
    // which nobody had, and the agent's "nightly sync" went on.
    FakeProvider.Builder fake = FakeProvider.builder().fault(FaultRule.of(Fault.rateLimited(Duration.ofSeconds(30))).path("/v1/invoices/{id}"));
    try (GatewayHarness h = new GatewayHarness(fake, ROUTE)) {
      HttpResponse<String> r = call(h, GatewayHarness.AGENT_TOKEN,
          HttpRequest.newBuilder(h.uri("/api/v1/invoices/inv_1")).header("Sluice-Task", "nightly sync").header("Prefer", "respond-async"));
      assertThat(r.statusCode()).isEqualTo(202);
      String location = r.headers().firstValue("Location").orElseThrow();
      awaitWaiting(h, GatewayHarness.AGENT_TOKEN, location);

      HttpResponse<String> cancel = call(h, GatewayHarness.AGENT_TOKEN, HttpRequest.newBuilder(h.uri("/v1/tasks/nightly%20sync")).DELETE());
      assertThat(cancel.statusCode()).isEqualTo(200);
      assertThat(cancel.body()).contains("\"task\":\"nightly sync\"", "\"cancelled\":1");
      assertThat(call(h, GatewayHarness.AGENT_TOKEN, HttpRequest.newBuilder(h.uri(location))).body()).contains("\"outcome\":\"cancelled\"");
      assertThat(h.fake.attempts()).hasSize(1);
    }
  }

  private static void awaitWaiting(GatewayHarness h, String token, String location) {
    long end = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    while (!call(h, token, HttpRequest.newBuilder(h.uri(location))).body().contains("\"state\":\"waiting\"")) {
      if (System.nanoTime() > end) {
        throw new AssertionError("the action never waited");
      }
      try {
        Thread.sleep(20);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError(e);
      }
    }
  }
}
