package dev.sluice.core.engine;

import dev.sluice.core.policy.LookupTemplate;
import dev.sluice.core.policy.OperationIdSource;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * How the engine looks an action up when its outcome is unknown (DESIGN.md §3 rule 7): the route's
 * {@code lookup} with the values known when the action was recorded.
 *
 * @param method GET or HEAD
 * @param template the look-up target, e.g. {@code /v1/transfers?idempotency_key={idempotency_key}}
 * @param values the placeholder values known up front: {@code idempotency_key}, {@code
 *     external_reference} and the route's path parameters
 * @param operationId where a response names the provider's operation id ({@code operation_id}),
 *     which fills {@code {operation_id}} once captured
 */
public record LookupPlan(String method, LookupTemplate template, Map<String, String> values, Optional<OperationIdSource> operationId) {
  public LookupPlan {
    Objects.requireNonNull(method, "method");
    Objects.requireNonNull(template, "template");
    values = Map.copyOf(values);
    Objects.requireNonNull(operationId, "operationId");
  }

  /**
   * The look-up target with every placeholder filled, or empty when a value is missing (e.g. the
   * template needs an operation id and no response named one).
   */
  public Optional<String> target(Optional<String> capturedOperationId) {
    Map<String, String> all = new HashMap<>(values);
    capturedOperationId.ifPresent(id -> all.put("operation_id", id));
    if (!all.keySet().containsAll(template.placeholders())) {
      return Optional.empty();
    }
    try {
      return Optional.of(template.expand(all));
    } catch (IllegalArgumentException e) {
      return Optional.empty(); // an empty or dot-segment value: this action cannot be looked up
    }
  }
}
