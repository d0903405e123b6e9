package dev.sluice.fake.internal;

import dev.sluice.fake.RouteFamily;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;

/**
 * One request as the resource store sees it.
 *
 * @param method the HTTP method, upper case
 * @param path the request path
 * @param family the family routed to
 * @param itemId the item segment after the family's path, if any
 * @param query the query parameters (first value of each)
 * @param body the request body
 * @param scope the request's scope
 * @param idempotencyKey the key sent, if any
 * @param now the fake's clock
 */
public record ResourceCall(
    String method,
    String path,
    RouteFamily family,
    Optional<String> itemId,
    Map<String, String> query,
    byte[] body,
    String scope,
    Optional<String> idempotencyKey,
    Instant now) {}
