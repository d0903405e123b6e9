package dev.sluice.core.engine.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.core.classify.AttemptResult;
import dev.sluice.core.policy.OperationIdSource;
import java.util.Optional;

/**
 * What a successful (2xx) reconciliation look-up says. A list — a top-level JSON array, or an
 * object whose {@code data}, {@code items} or {@code results} member is an array (Stripe and most
 * REST APIs) — is {@link #FOUND} when it holds at least one element and {@link #ABSENT} when
 * empty. A look-up that searches (its target has a query, e.g. {@code ?idempotency_key=...})
 * must answer such a list: anything else — an empty or non-JSON body, {@code null}, an object of
 * another shape — is {@link #UNREADABLE}, because calling it "found" would report a write as done
 * when nothing proves it. A look-up of one resource by path (e.g. by operation id, or a HEAD) is
 * {@link #FOUND} on any 2xx that is not an empty list. A list cut off at the body cap is
 * {@link #UNREADABLE}: half a list proves nothing.
 */
public enum LookupAnswer {
  FOUND,
  ABSENT,
  UNREADABLE;

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String[] LIST_FIELDS = {"data", "items", "results"};

  /**
   * Reads a 2xx look-up answer. Never throws on the body's content.
   *
   * @param search whether the look-up searches (its target has a query) and so must answer a list
   */
  public static LookupAnswer read(AttemptResult.Response response, boolean search) {
    LookupAnswer notAList = search ? UNREADABLE : FOUND;
    byte[] body = response.bodyPrefix();
    if (body.length == 0) {
      return notAList;
    }
    JsonNode root;
    try {
      root = JSON.readTree(body);
    } catch (java.io.IOException | RuntimeException e) {
      return body.length >= AttemptResult.Response.BODY_PREFIX_LIMIT ? UNREADABLE : notAList;
    }
    if (root == null || root.isNull()) {
      return notAList;
    }
    JsonNode list = root.isArray() ? root : null;
    for (int i = 0; list == null && i < LIST_FIELDS.length; i++) {
      JsonNode n = root.get(LIST_FIELDS[i]);
      if (n != null && n.isArray()) {
        list = n;
      }
    }
    if (list == null) {
      return notAList;
    }
    return list.isEmpty() ? ABSENT : FOUND;
  }

  /** The provider's operation id named by a response, per the route's {@code operation_id}. */
  public static Optional<String> operationId(OperationIdSource source, AttemptResult.Response response) {
    if (source.header().isPresent()) {
      return response.headers().first(source.header().get()).filter(v -> !v.isBlank() && v.length() <= 512);
    }
    try {
      JsonNode n = JSON.readTree(response.bodyPrefix());
      if (n == null) {
        return Optional.empty();
      }
      JsonNode v = n.at(source.jsonPointer().orElseThrow());
      return v.isValueNode() && !v.asText().isBlank() && v.asText().length() <= 512 ? Optional.of(v.asText()) : Optional.empty();
    } catch (java.io.IOException | RuntimeException e) {
      return Optional.empty();
    }
  }
}
