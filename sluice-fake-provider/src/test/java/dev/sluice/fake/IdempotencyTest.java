package dev.sluice.fake;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Idempotency-Key with Stripe / draft-ietf-httpapi-idempotency-key-header semantics. */
class IdempotencyTest {

  @RegisterExtension
  static final FakeProviderExtension FAKE =
      FakeProviderExtension.of(() -> FakeProvider.builder().quota(Quota.perSecond(1000, 1000)));

  static final String AUTH = "Authorization";

  @Test
  void theSameKeyAndPayloadReplaysTheStoredResponseWithoutASecondEffect(FakeProvider fake) {
    Http http = new Http(fake.baseUri());
    String body = "{\"amount\":250,\"currency\":\"usd\"}";
    HttpResponse<String> first = http.post("/v1/transfers", body, AUTH, "Bearer a", "Idempotency-Key", "k-1");
    HttpResponse<String> again = http.post("/v1/transfers", "{\"currency\":\"usd\",\"amount\":250}", AUTH, "Bearer a", "Idempotency-Key", "k-1");

    assertThat(first.statusCode()).isEqualTo(201);
    assertThat(first.headers().firstValue("Idempotent-Replayed")).isEmpty();
    assertThat(again.statusCode()).isEqualTo(201);
    assertThat(again.body()).isEqualTo(first.body());
    assertThat(again.headers().firstValue("Idempotent-Replayed")).hasValue("true");
    assertThat(again.headers().firstValue("Operation-Id")).isEqualTo(first.headers().firstValue("Operation-Id"));
    assertThat(fake.records("transfers")).hasSize(1);
    assertThat(fake.balance()).isEqualTo(FakeProviderConfig.DEFAULT_BALANCE - 250);
    assertThat(fake.attempts()).extracting(Attempt::replayed).containsExactly(false, true);
  }

  @Test
  void theSameKeyWithAnotherPayloadIs422AndChangesNothing(FakeProvider fake) {
    Http http = new Http(fake.baseUri());
    http.post("/v1/transfers", "{\"amount\":250}", "Idempotency-Key", "k-2");
    HttpResponse<String> other = http.post("/v1/transfers", "{\"amount\":999}", "Idempotency-Key", "k-2");
    HttpResponse<String> otherPath = http.post("/records", "{\"amount\":250}", "Idempotency-Key", "k-2");

    assertThat(other.statusCode()).isEqualTo(422);
    assertThat(Http.json(other).at("/error/code").asText()).isEqualTo("idempotency_key_reused");
    assertThat(otherPath.statusCode()).isEqualTo(422);
    assertThat(fake.records()).filteredOn(r -> !r.family().equals("invoices")).hasSize(1);
  }

  @Test
  void theSameKeyWhileTheFirstIsInFlightIs409(FakeProvider fake) throws Exception {
    fake.addFault(FaultRule.of(Fault.hold(Duration.ofSeconds(10))).method("POST"));
    Http http = new Http(fake.baseUri());
    CompletableFuture<HttpResponse<String>> first = CompletableFuture.supplyAsync(
        () -> http.post("/records", "{\"name\":\"x\"}", "Idempotency-Key", "k-3"));
    assertThat(fake.awaitHeld(1, Duration.ofSeconds(5))).isTrue();

    HttpResponse<String> concurrent = http.post("/records", "{\"name\":\"x\"}", "Idempotency-Key", "k-3");
    assertThat(concurrent.statusCode()).isEqualTo(409);
    assertThat(Http.json(concurrent).at("/error/code").asText()).isEqualTo("idempotency_key_in_use");
    assertThat(fake.records("records")).isEmpty();

    fake.releaseHeld();
    assertThat(first.get(5, TimeUnit.SECONDS).statusCode()).isEqualTo(201);
    HttpResponse<String> after = http.post("/records", "{\"name\":\"x\"}", "Idempotency-Key", "k-3");
    assertThat(after.headers().firstValue("Idempotent-Replayed")).hasValue("true");
    assertThat(fake.records("records")).hasSize(1);
  }

  @Test
  void keysBelongToOneScope(FakeProvider fake) {
    Http http = new Http(fake.baseUri());
    http.post("/records", "{\"n\":1}", AUTH, "Bearer a", "Idempotency-Key", "shared");
    HttpResponse<String> b = http.post("/records", "{\"n\":1}", AUTH, "Bearer b", "Idempotency-Key", "shared");
    assertThat(b.statusCode()).isEqualTo(201);
    assertThat(b.headers().firstValue("Idempotent-Replayed")).isEmpty();
    assertThat(fake.records("records")).hasSize(2);
  }

  @Test
  void aFailedRequestDoesNotBurnTheKey(FakeProvider fake) {
    Http http = new Http(fake.baseUri());
    HttpResponse<String> bad = http.post("/v1/transfers", "{\"currency\":\"usd\"}", "Idempotency-Key", "k-4");
    assertThat(bad.statusCode()).isEqualTo(400);
    HttpResponse<String> fixed = http.post("/v1/transfers", "{\"currency\":\"usd\",\"amount\":5}", "Idempotency-Key", "k-4");
    assertThat(fixed.statusCode()).isEqualTo(201);
    assertThat(fake.records("transfers")).hasSize(1);
  }

  @Test
  void readsIgnoreTheKey(FakeProvider fake) {
    Http http = new Http(fake.baseUri());
    assertThat(http.get("/v1/invoices/inv_1", "Idempotency-Key", "k-5").statusCode()).isEqualTo(200);
    assertThat(http.get("/v1/invoices/inv_2", "Idempotency-Key", "k-5").statusCode()).isEqualTo(200);
  }

  @Test
  void aFamilyWithoutIdempotencyCreatesADuplicateOnEveryRetry() {
    try (FakeProvider fake = FakeProvider.builder().idempotency("records", false).start()) {
      Http http = new Http(fake.baseUri());
      HttpResponse<String> a = http.post("/records", "{\"n\":1}", "Idempotency-Key", "k-6");
      HttpResponse<String> b = http.post("/records", "{\"n\":1}", "Idempotency-Key", "k-6");
      assertThat(a.statusCode()).isEqualTo(201);
      assertThat(b.statusCode()).isEqualTo(201);
      assertThat(b.headers().firstValue("Idempotent-Replayed")).isEmpty();
      assertThat(fake.records("records")).extracting(StoredRecord::id).containsExactly("rec_1", "rec_2");
      // The other families keep their idempotency.
      http.post("/v1/transfers", "{\"amount\":1}", "Idempotency-Key", "k-7");
      http.post("/v1/transfers", "{\"amount\":1}", "Idempotency-Key", "k-7");
      assertThat(fake.records("transfers")).hasSize(1);
    }
  }
}
