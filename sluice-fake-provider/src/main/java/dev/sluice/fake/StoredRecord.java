package dev.sluice.fake;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * A resource the fake holds: one item of a collection family ({@code records}, {@code transfers},
 * {@code invoices}, or one you configured). Deleted items stay listed here with {@code deleted}
 * true, so tests see every effect ever made.
 *
 * @param id the resource id ({@code rec_1}, {@code tr_2}, ...)
 * @param family the family it belongs to
 * @param operationId the operation that created it ({@code op_N}); seeded items have none
 * @param createdAt creation time on the fake's clock
 * @param updatedAt last change on the fake's clock
 * @param scope the scope that created it
 * @param idempotencyKey the {@code Idempotency-Key} it was created with, if any
 * @param clientReference the {@code client_reference} field of its body, if any
 * @param json its current JSON representation, as answered by {@code GET}
 * @param deleted whether it was deleted
 */
public record StoredRecord(
    String id,
    String family,
    Optional<String> operationId,
    Instant createdAt,
    Instant updatedAt,
    String scope,
    Optional<String> idempotencyKey,
    Optional<String> clientReference,
    String json,
    boolean deleted) {

  public StoredRecord {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(family, "family");
    Objects.requireNonNull(operationId, "operationId");
    Objects.requireNonNull(createdAt, "createdAt");
    Objects.requireNonNull(updatedAt, "updatedAt");
    Objects.requireNonNull(scope, "scope");
    Objects.requireNonNull(idempotencyKey, "idempotencyKey");
    Objects.requireNonNull(clientReference, "clientReference");
    Objects.requireNonNull(json, "json");
  }
}
