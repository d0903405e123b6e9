package dev.sluice.core.policy;

import java.util.Objects;
import java.util.Optional;

/**
 * What the HTTP gateway ({@code sluice serve}) needs beyond the engine: the operator's token for
 * the admin API ({@code operator}) and the size caps of the {@code gateway} block.
 *
 * @param operatorToken where the operator token is read from ({@code operator.token_env} or
 *     {@code operator.token_file}); absent: the admin API ({@code /v1/...}) answers 401 to everyone
 * @param maxRequestBodyBytes the largest request body an agent may send; larger: 413. Default 1 MiB
 * @param maxResponseBodyBytes the largest provider response body relayed; larger: the body is not
 *     read, the provider's status stands, and the agent gets {@code response_too_large}. Default and
 *     maximum 64 KiB (what the engine keeps of an answer)
 * @param maxRequestHeaders the most header field lines a request may carry; more: 431. Default 100
 * @param maxHeaderBytes the largest request head (and provider response head relayed); larger:
 *     431 (502 for a response). Default 16 KiB
 */
public record GatewaySettings(
    Optional<SecretRef> operatorToken, int maxRequestBodyBytes, int maxResponseBodyBytes, int maxRequestHeaders, int maxHeaderBytes) {

  /** The largest response body the engine keeps, so the largest the gateway can relay. */
  public static final int RESPONSE_BODY_LIMIT = 64 * 1024;

  /** No operator token; 1 MiB requests, 64 KiB responses, 100 header lines, 16 KiB heads. */
  public static final GatewaySettings DEFAULTS = new GatewaySettings(Optional.empty(), 1 << 20, RESPONSE_BODY_LIMIT, 100, 16 * 1024);

  public GatewaySettings {
    Objects.requireNonNull(operatorToken, "operatorToken");
    if (maxRequestBodyBytes < 0 || maxRequestBodyBytes > 1 << 30) {
      throw new IllegalArgumentException("gateway.max_request_body_bytes must be 0 to 1073741824, got " + maxRequestBodyBytes);
    }
    if (maxResponseBodyBytes < 0 || maxResponseBodyBytes > RESPONSE_BODY_LIMIT) {
      throw new IllegalArgumentException("gateway.max_response_body_bytes must be 0 to " + RESPONSE_BODY_LIMIT + ", got " + maxResponseBodyBytes);
    }
    if (maxRequestHeaders < 1 || maxRequestHeaders > 10_000) {
      throw new IllegalArgumentException("gateway.max_request_headers must be 1 to 10000, got " + maxRequestHeaders);
    }
    if (maxHeaderBytes < 1024 || maxHeaderBytes > 1 << 20) {
      throw new IllegalArgumentException("gateway.max_header_bytes must be 1024 to 1048576, got " + maxHeaderBytes);
    }
  }

  /** These settings with another operator token reference. */
  public GatewaySettings withOperatorToken(SecretRef ref) {
    return new GatewaySettings(Optional.of(ref), maxRequestBodyBytes, maxResponseBodyBytes, maxRequestHeaders, maxHeaderBytes);
  }
}
