package dev.sluice.fake;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

/** The ground truth: every attempt, with what it carried and what it got. */
class AttemptLogTest {

  @Test
  void oneHundredConcurrentClientsLoseNoEntry() throws Exception {
    int clients = 100;
    int each = 5;
    try (FakeProvider fake = FakeProvider.builder().quota(Quota.perSecond(1_000_000, 1_000_000)).start();
        ExecutorService pool = Executors.newFixedThreadPool(clients)) {
      CountDownLatch go = new CountDownLatch(1);
      List<Future<List<Integer>>> results = new ArrayList<>();
      for (int c = 0; c < clients; c++) {
        String task = "task-" + c;
        Http http = new Http(fake.baseUri()); // one client, one connection pool per "agent"
        results.add(pool.submit(() -> {
          go.await();
          List<Integer> statuses = new ArrayList<>();
          for (int i = 0; i < each; i++) {
            String path = i % 2 == 0 ? "/records" : "/v1/invoices/inv_1";
            HttpResponse<String> r = i % 2 == 0
                ? http.post(path, "{\"i\":" + i + "}", "Sluice-Task", task, "Idempotency-Key", task + "-" + i)
                : http.get(path, "Sluice-Task", task);
            statuses.add(r.statusCode());
          }
          return statuses;
        }));
      }
      go.countDown();
      for (Future<List<Integer>> f : results) {
        assertThat(f.get()).containsOnly(200, 201);
      }

      List<Attempt> attempts = fake.attempts();
      assertThat(attempts).hasSize(clients * each);
      assertThat(attempts).extracting(Attempt::seq)
          .containsExactlyElementsOf(LongStream.rangeClosed(1, clients * each).boxed().toList());
      Map<String, Long> perTask = attempts.stream()
          .collect(Collectors.groupingBy(a -> a.task().orElseThrow(), Collectors.counting()));
      assertThat(perTask).hasSize(clients).allSatisfy((task, n) -> assertThat(n).isEqualTo(each));
      assertThat(attempts).allSatisfy(a -> assertThat(a.result()).isEqualTo(Attempt.Result.ANSWERED));
      long posts = (long) clients * ((each + 1) / 2);
      assertThat(attempts).filteredOn(a -> a.method().equals("POST")).hasSize((int) posts)
          .allSatisfy(a -> assertThat(a.status()).isEqualTo(201));
      assertThat(fake.records("records")).hasSize((int) posts);
    }
  }

  @Test
  void anAttemptCarriesWhatTheRequestSentAndWhatItGot() {
    ManualClock clock = ManualClock.at(Instant.parse("2025-05-05T05:05:05.5Z"));
    try (FakeProvider fake = FakeProvider.builder().clock(clock).quota(Quota.perSecond(1, 1)).start()) {
      Http http = new Http(fake.baseUri());
      http.post("/records?source=test", "{}", "Authorization", "Bearer s3cret", "Idempotency-Key", "k", "Sluice-Task", "t-9");
      clock.advance(Duration.ofMillis(10));
      http.get("/records");

      assertThat(fake.attempts()).hasSize(2);
      Attempt first = fake.attempts().get(0);
      assertThat(first.seq()).isEqualTo(1);
      assertThat(first.arrivedAt()).isEqualTo(Instant.parse("2025-05-05T05:05:05.5Z"));
      assertThat(first.method()).isEqualTo("POST");
      assertThat(first.path()).isEqualTo("/records");
      assertThat(first.query()).isEqualTo("source=test");
      assertThat(first.family()).isEqualTo("records");
      assertThat(first.scope()).isEqualTo(ScopeBy.credentialScope("Bearer s3cret")).doesNotContain("s3cret");
      assertThat(first.idempotencyKey()).hasValue("k");
      assertThat(first.task()).hasValue("t-9");
      assertThat(first.status()).isEqualTo(201);
      assertThat(first.result()).isEqualTo(Attempt.Result.ANSWERED);
      assertThat(first.operationId()).hasValue("op_1");

      Attempt second = fake.attempts().get(1);
      assertThat(second.arrivedAt()).isEqualTo(Instant.parse("2025-05-05T05:05:05.51Z"));
      assertThat(second.scope()).isEqualTo(ScopeBy.ANONYMOUS);
      assertThat(second.idempotencyKey()).isEmpty();
      assertThat(second.task()).isEmpty();
      assertThat(second.status()).isEqualTo(200);
    }
  }

  @Test
  void resetForgetsAttemptsRecordsKeysAndBuckets() {
    try (FakeProvider fake = FakeProvider.builder().quota(Quota.perSecond(1, 1)).start()) {
      Http http = new Http(fake.baseUri());
      http.post("/records", "{}", "Idempotency-Key", "k");
      assertThat(http.get("/records").statusCode()).isEqualTo(429);
      fake.reset();
      assertThat(fake.attempts()).isEmpty();
      assertThat(fake.records("records")).isEmpty();
      assertThat(fake.records("invoices")).hasSize(3);
      HttpResponse<String> again = http.post("/records", "{}", "Idempotency-Key", "k");
      assertThat(again.statusCode()).isEqualTo(201);
      assertThat(again.headers().firstValue("Idempotent-Replayed")).isEmpty();
      assertThat(fake.attempts()).extracting(Attempt::seq).containsExactly(1L);
    }
  }
}
