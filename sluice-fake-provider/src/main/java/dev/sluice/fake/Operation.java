package dev.sluice.fake;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * One write the fake performed, with the operation id it answered in the {@code Operation-Id}
 * header. Looked up with {@code GET /v1/operations/{id}}.
 *
 * @param id the operation id ({@code op_N})
 * @param method the method of the write
 * @param path the path written to
 * @param family the family written to
 * @param resourceId the resource created or changed
 * @param status the status answered
 * @param at when, on the fake's clock
 * @param scope the scope that wrote
 * @param idempotencyKey the {@code Idempotency-Key} it carried, if any
 */
public record Operation(
    String id,
    String method,
    String path,
    String family,
    String resourceId,
    int status,
    Instant at,
    String scope,
    Optional<String> idempotencyKey) {

  public Operation {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(method, "method");
    Objects.requireNonNull(path, "path");
    Objects.requireNonNull(family, "family");
    Objects.requireNonNull(resourceId, "resourceId");
    Objects.requireNonNull(at, "at");
    Objects.requireNonNull(scope, "scope");
    Objects.requireNonNull(idempotencyKey, "idempotencyKey");
  }
}
