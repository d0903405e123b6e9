package dev.sluice.core.policy;

import java.util.Objects;

/**
 * How to find out whether an action whose outcome is unknown took effect ({@code routes[].lookup}):
 * a safe request whose target names the action, e.g. {@code {method: GET, path:
 * "/v1/transfers?idempotency_key={idempotency_key}"}}.
 *
 * @param method {@code GET} or {@code HEAD}: a look-up must never itself change anything
 * @param path the target, see {@link LookupTemplate}
 */
public record Lookup(String method, LookupTemplate path) {
  public Lookup {
    Objects.requireNonNull(method, "method");
    Objects.requireNonNull(path, "path");
    if (!method.equals("GET") && !method.equals("HEAD")) {
      throw new IllegalArgumentException("a look-up must be GET or HEAD (it must not change anything), got " + method);
    }
  }
}
