package dev.sluice.core.policy;

import java.util.Map;
import java.util.Objects;

/**
 * The route a request falls under ({@link Provider#classify}).
 *
 * @param route the declared route that matched, or, when none did, a synthetic route with the
 *     path {@link RouteTemplate#any()} and the unmatched-route class ({@code read} for GET and
 *     HEAD, {@code uncertain_write} for anything else)
 * @param pathParameters the decoded path parameters of the declared route; empty when unmatched
 * @param declared whether {@code route} is one declared in the policy
 */
public record RouteMatch(Route route, Map<String, String> pathParameters, boolean declared) {
  public RouteMatch {
    Objects.requireNonNull(route, "route");
    Objects.requireNonNull(pathParameters, "pathParameters");
    pathParameters = Map.copyOf(pathParameters);
  }

  /** The request class name of the route (a key of {@link Policy#requestClasses()}). */
  public String requestClass() {
    return route.requestClass();
  }
}
