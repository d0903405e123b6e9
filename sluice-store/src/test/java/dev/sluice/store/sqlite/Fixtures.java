package dev.sluice.store.sqlite;

import dev.sluice.core.engine.Priority;
import dev.sluice.core.http.Headers;
import dev.sluice.core.policy.RequestClass;
import dev.sluice.core.scope.ScopeId;
import dev.sluice.core.journal.NewAction;
import java.nio.charset.StandardCharsets;
import java.time.Instant;

/** Actions and instants the journal tests share. */
final class Fixtures {
  static final Instant T0 = Instant.parse("2026-11-30T10:00:00Z");
  static final ScopeId BILLING = new ScopeId("billing-api", "account:ops-team");

  private Fixtures() {}

  static Instant at(long seconds) {
    return T0.plusSeconds(seconds);
  }

  /** A POST /v1/transfers with a key and a JSON body: the write the journal exists for. */
  static NewAction.Builder transfer(String taskId, String key) {
    return NewAction.builder(taskId, BILLING, "POST", "/v1/transfers", "/v1/transfers", RequestClass.SEED_IDEMPOTENT_WRITE, T0)
        .priority(Priority.INTERACTIVE)
        .headers(Headers.of("Content-Type", "application/json"))
        .payload("{\"amount\":100,\"currency\":\"eur\"}".getBytes(StandardCharsets.UTF_8))
        .idempotencyKey(key);
  }

  /** A GET of one invoice. */
  static NewAction.Builder invoiceRead(String taskId) {
    return NewAction.builder(taskId, BILLING, "GET", "/v1/invoices/{id}", "/v1/invoices/42?expand=lines", RequestClass.SEED_READ, T0);
  }
}
