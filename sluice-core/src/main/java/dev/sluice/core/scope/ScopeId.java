package dev.sluice.core.scope;

import java.util.Objects;

/**
 * Names one shared quota pool: a provider from {@code sluice.yaml} and its scope (an account, a
 * token, an endpoint family). Every worker on the same id shares one queue and one record.
 */
public record ScopeId(String provider, String scope) {
  public ScopeId {
    Objects.requireNonNull(provider, "provider");
    Objects.requireNonNull(scope, "scope");
    if (provider.isBlank() || scope.isBlank()) {
      throw new IllegalArgumentException("a scope id needs a provider and a scope name, got '" + provider + "' / '" + scope + "'");
    }
  }

  @Override
  public String toString() {
    return provider + "/" + scope;
  }
}
