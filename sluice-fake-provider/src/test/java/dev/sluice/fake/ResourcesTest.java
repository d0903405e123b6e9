package dev.sluice.fake;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The record store: mutable records, append-only transfers, immutable invoices, the balance. */
class ResourcesTest {

  @RegisterExtension
  static final FakeProviderExtension FAKE =
      FakeProviderExtension.of(() -> FakeProvider.builder().quota(Quota.perSecond(1000, 1000)));

  @Test
  void recordsCanBeCreatedReadReplacedPatchedAndDeleted(FakeProvider fake) {
    Http http = new Http(fake.baseUri());
    HttpResponse<String> created = http.post("/records", "{\"name\":\"a\",\"id\":\"mine\"}");
    assertThat(created.statusCode()).isEqualTo(201);
    assertThat(Http.json(created).get("id").asText()).isEqualTo("rec_1"); // the provider's id wins
    assertThat(Http.json(http.get("/records/rec_1")).get("name").asText()).isEqualTo("a");
    assertThat(http.send("PUT", "/records/rec_1", "{\"name\":\"b\"}").statusCode()).isEqualTo(200);
    assertThat(http.send("PATCH", "/records/rec_1", "{\"extra\":1}").statusCode()).isEqualTo(200);
    assertThat(Http.json(http.get("/records/rec_1")).get("name").asText()).isEqualTo("b");
    assertThat(Http.json(http.get("/records/rec_1")).get("extra").asInt()).isEqualTo(1);
    assertThat(http.send("DELETE", "/records/rec_1", null).statusCode()).isEqualTo(200);
    assertThat(http.get("/records/rec_1").statusCode()).isEqualTo(404);
    assertThat(fake.records("records")).singleElement().satisfies(r -> assertThat(r.deleted()).isTrue());
    assertThat(fake.operations()).hasSize(4);
  }

  @Test
  void invoicesAreSeededAndImmutable(FakeProvider fake) {
    Http http = new Http(fake.baseUri());
    assertThat(Http.json(http.get("/v1/invoices/inv_2")).get("amount_due").asLong()).isEqualTo(2000);
    HttpResponse<String> put = http.send("PUT", "/v1/invoices/inv_2", "{\"amount_due\":1}");
    assertThat(put.statusCode()).isEqualTo(405);
    assertThat(put.headers().firstValue("Allow")).hasValue("GET, HEAD");
    assertThat(http.send("DELETE", "/v1/invoices/inv_2", null).statusCode()).isEqualTo(405);
    assertThat(Http.json(http.post("/v1/invoices", "{\"amount_due\":7}")).get("id").asText()).isEqualTo("inv_4");
  }

  @Test
  void transfersDebitTheMutableBalanceAndNeedAnAmount(FakeProvider fake) {
    Http http = new Http(fake.baseUri());
    long start = Http.json(http.get("/v1/balance")).get("available").asLong();
    assertThat(start).isEqualTo(FakeProviderConfig.DEFAULT_BALANCE);
    http.post("/v1/transfers", "{\"amount\":300}");
    http.post("/v1/balance", "{\"amount\":50}");
    assertThat(Http.json(http.get("/v1/balance")).get("available").asLong()).isEqualTo(start - 300 + 50);
    assertThat(http.post("/v1/transfers", "{\"amount\":\"lots\"}").statusCode()).isEqualTo(400);
    assertThat(http.send("PUT", "/v1/transfers/tr_1", "{\"amount\":1}").statusCode()).isEqualTo(405);
  }

  @Test
  void unknownPathsAre404AndStillLogged(FakeProvider fake) {
    Http http = new Http(fake.baseUri());
    assertThat(http.get("/v2/nothing").statusCode()).isEqualTo(404);
    assertThat(http.get("/records/a/b").statusCode()).isEqualTo(404);
    assertThat(fake.attempts()).extracting(Attempt::family).containsExactly("", "");
  }

  @Test
  void onlyAcceptedCredentialsPassWhenConfigured() {
    try (FakeProvider fake = FakeProvider.builder().acceptCredentials("Bearer right").start()) {
      Http http = new Http(fake.baseUri());
      assertThat(http.get("/records", "Authorization", "Bearer wrong").statusCode()).isEqualTo(401);
      assertThat(http.get("/records").statusCode()).isEqualTo(401);
      assertThat(http.get("/records", "Authorization", "Bearer right").statusCode()).isEqualTo(200);
      assertThat(fake.config().toString()).doesNotContain("Bearer right");
    }
  }

  @Test
  void aConfiguredCollectionServesLikeRecords() {
    try (FakeProvider fake = FakeProvider.builder()
        .family(RouteFamily.collection("customers", "/v1/customers", "cus_").withMutable(false)).start()) {
      Http http = new Http(fake.baseUri());
      assertThat(Http.json(http.post("/v1/customers", "{\"email\":\"a@b.c\"}")).get("id").asText()).isEqualTo("cus_1");
      assertThat(http.send("DELETE", "/v1/customers/cus_1", null).statusCode()).isEqualTo(405);
      assertThat(fake.records("customers")).hasSize(1);
    }
  }
}
