package dev.sluice.bench.quota;

import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * One logical action a worker must complete, however many attempts it takes.
 *
 * @param index from 0
 * @param method GET for reads, POST for writes
 * @param target path relative to the provider's base URL
 * @param idempotencyKey for a write: one key per logical action, the same on every attempt
 * @param body the request body (empty for reads)
 */
record Action(int index, String method, String target, Optional<String> idempotencyKey, byte[] body) {

  /**
   * The {@code index}-th action of a run. Reads spread over the fake's three seeded invoices; writes
   * are transfers of 1 unit, each with a key of its own, stable across attempts and unique to the
   * strategy's run ({@code runId}), so no run can replay another's stored response.
   */
  static Action of(Kind kind, int index, String runId) {
    if (kind == Kind.READS) {
      return new Action(index, "GET", "/v1/invoices/inv_" + (1 + index % 3), Optional.empty(), new byte[0]);
    }
    byte[] body = ("{\"amount\":1,\"currency\":\"USD\",\"description\":\"bench " + index + "\"}").getBytes(StandardCharsets.UTF_8);
    return new Action(index, "POST", "/v1/transfers", Optional.of(runId + "-" + index), body);
  }
}
