package dev.sluice.fake;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The uncertain write: the provider saved it, the client never heard back. */
class CommitThenDropTest {

  @RegisterExtension
  static final FakeProviderExtension FAKE = FakeProviderExtension.withDefaults();

  @Test
  void theRecordIsSavedOnceAndTheClientSeesADroppedConnection(FakeProvider fake) {
    fake.addFault(FaultRule.of(Fault.dropAfterCommit()).method("POST").path("/records"));
    Http http = new Http(fake.baseUri());

    assertThatThrownBy(() -> http.sendOrThrow("POST", "/records", "{\"client_reference\":\"order-7\"}",
        "Idempotency-Key", "k-drop", "Sluice-Task", "task-1"))
        .isInstanceOf(IOException.class);

    assertThat(fake.records("records")).singleElement().satisfies(r -> {
      assertThat(r.clientReference()).hasValue("order-7");
      assertThat(r.idempotencyKey()).hasValue("k-drop");
    });
    assertThat(fake.attempts()).singleElement().satisfies(a -> {
      assertThat(a.result()).isEqualTo(Attempt.Result.DROPPED);
      assertThat(a.status()).isEqualTo(201);
      assertThat(a.faults()).containsExactly("drop_after_commit");
      assertThat(a.operationId()).isPresent();
      assertThat(a.task()).hasValue("task-1");
    });
  }

  @Test
  void onTheWireNotOneByteOfResponseArrives(FakeProvider fake) throws IOException {
    fake.addFault(FaultRule.of(Fault.dropAfterCommit()));
    byte[] got = Http.raw(fake.baseUri(), Http.rawPost("/records", "{\"n\":1}"));
    assertThat(got).isEmpty();
    assertThat(fake.records("records")).hasSize(1);
  }

  @Test
  void aRetryWithTheSameKeyIsReplayedAndTheLookUpsFindTheOneRecord(FakeProvider fake) {
    fake.addFault(FaultRule.of(Fault.dropAfterCommit()).method("POST"));
    Http http = new Http(fake.baseUri());
    String body = "{\"client_reference\":\"order-8\"}";
    assertThatThrownBy(() -> http.sendOrThrow("POST", "/records", body, "Idempotency-Key", "k-8"))
        .isInstanceOf(IOException.class);

    HttpResponse<String> retry = http.post("/records", body, "Idempotency-Key", "k-8");
    assertThat(retry.statusCode()).isEqualTo(201);
    assertThat(retry.headers().firstValue("Idempotent-Replayed")).hasValue("true");

    HttpResponse<String> byRef = http.get("/records?client_reference=order-8");
    assertThat(Http.json(byRef).get("data")).hasSize(1);
    HttpResponse<String> byKey = http.get("/records?idempotency_key=k-8");
    assertThat(Http.json(byKey).get("data")).hasSize(1);
    assertThat(fake.records("records")).hasSize(1);
  }

  @Test
  void withoutIdempotencyARetryCreatesTheDuplicateTheEngineMustAvoid() {
    try (FakeProvider fake = FakeProvider.builder().idempotency("records", false)
        .fault(FaultRule.of(Fault.dropAfterCommit()).method("POST")).start()) {
      Http http = new Http(fake.baseUri());
      assertThatThrownBy(() -> http.sendOrThrow("POST", "/records", "{}", "Idempotency-Key", "k-9"))
          .isInstanceOf(IOException.class);
      assertThat(http.post("/records", "{}", "Idempotency-Key", "k-9").statusCode()).isEqualTo(201);
      assertThat(fake.records("records")).hasSize(2);
    }
  }
}
