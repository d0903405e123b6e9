package dev.sluice.core.transport.internal;

import java.util.Locale;
import java.util.Set;

/**
 * Which of the agent's header fields go to the provider. The transport owns the credential, the
 * idempotency key, the task header and the message framing; an agent cannot set any of them.
 */
public final class ForwardedHeaders {
  /** Framing and hop-by-hop fields (RFC 9110 §7.6.1) and proxy credentials: the client writes these itself. */
  private static final Set<String> DROPPED = Set.of(
      "host", "content-length", "transfer-encoding", "connection", "keep-alive", "proxy-connection", "te", "trailer",
      "upgrade", "expect", "proxy-authorization", "proxy-authenticate");

  private ForwardedHeaders() {}

  /**
   * Whether an agent's field named {@code name} is forwarded, given the header names the transport
   * sets itself (credential, idempotency, task), compared ignoring case.
   */
  public static boolean forwarded(String name, Set<String> ownedLowerCase) {
    String n = name.toLowerCase(Locale.ROOT);
    return !DROPPED.contains(n) && !ownedLowerCase.contains(n);
  }
}
