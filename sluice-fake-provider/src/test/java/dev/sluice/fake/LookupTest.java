package dev.sluice.fake;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Reconciliation styles: by idempotency key, by external reference, by provider operation id. */
class LookupTest {

  @RegisterExtension
  static final FakeProviderExtension FAKE =
      FakeProviderExtension.of(() -> FakeProvider.builder().quota(Quota.perSecond(1000, 1000)));

  @Test
  void byIdempotencyKeyOnTransfers(FakeProvider fake) {
    Http http = new Http(fake.baseUri());
    http.post("/v1/transfers", "{\"amount\":10}", "Idempotency-Key", "key-a");
    http.post("/v1/transfers", "{\"amount\":20}", "Idempotency-Key", "key-b");
    JsonNode found = Http.json(http.get("/v1/transfers?idempotency_key=key-b"));
    assertThat(found.get("object").asText()).isEqualTo("list");
    assertThat(found.get("data")).hasSize(1);
    assertThat(found.at("/data/0/amount").asLong()).isEqualTo(20);
    assertThat(Http.json(http.get("/v1/transfers?idempotency_key=never-sent")).get("data")).isEmpty();
  }

  @Test
  void byClientReferenceOnRecords(FakeProvider fake) {
    Http http = new Http(fake.baseUri());
    http.post("/records", "{\"client_reference\":\"ref-1\",\"v\":1}");
    http.post("/records", "{\"client_reference\":\"ref-2\",\"v\":2}");
    JsonNode found = Http.json(http.get("/records?client_reference=ref-2"));
    assertThat(found.get("data")).hasSize(1);
    assertThat(found.at("/data/0/v").asInt()).isEqualTo(2);
  }

  @Test
  void byOperationIdFromTheOperationIdHeader(FakeProvider fake) {
    Http http = new Http(fake.baseUri());
    HttpResponse<String> created = http.post("/v1/transfers", "{\"amount\":30}", "Idempotency-Key", "key-c");
    String opId = created.headers().firstValue("Operation-Id").orElseThrow();
    String resourceId = Http.json(created).get("id").asText();
    assertThat(resourceId).startsWith("tr_");
    assertThat(created.headers().firstValue("Location")).hasValue("/v1/transfers/" + resourceId);

    JsonNode op = Http.json(http.get("/v1/operations/" + opId));
    assertThat(op.get("id").asText()).isEqualTo(opId);
    assertThat(op.get("status").asText()).isEqualTo("succeeded");
    assertThat(op.get("resource_id").asText()).isEqualTo(resourceId);
    assertThat(op.get("idempotency_key").asText()).isEqualTo("key-c");
    assertThat(http.get("/v1/transfers/" + resourceId).statusCode()).isEqualTo(200);
    assertThat(http.get("/v1/operations/op_999").statusCode()).isEqualTo(404);
    assertThat(fake.operations()).extracting(Operation::id).containsExactly(opId);
  }
}
