/**
 * The policy file {@code sluice.yaml}: immutable records for everything it configures, the loader
 * that validates it, and route templates that map a request path to a request class.
 *
 * <p>Entry points: {@link dev.sluice.core.policy.PolicyLoader#load(java.nio.file.Path)} returns a
 * {@link dev.sluice.core.policy.Policy} or throws a {@link dev.sluice.core.policy.PolicyException}
 * listing every {@link dev.sluice.core.policy.Problem} at once;
 * {@link dev.sluice.core.policy.Provider#classify(String, String)} maps a request to its
 * {@link dev.sluice.core.policy.RouteMatch}; {@link dev.sluice.core.policy.PathSafety} refuses
 * dot-segments and encoded slashes before anything is matched or forwarded.
 *
 * <p>The YAML keys are a public contract (DESIGN.md §4, docs/CONFIGURATION.md). The loader never
 * reads secret values: credentials and agent tokens are references ({@link
 * dev.sluice.core.policy.SecretRef}) that the gateway resolves at start-up.
 */
package dev.sluice.core.policy;
