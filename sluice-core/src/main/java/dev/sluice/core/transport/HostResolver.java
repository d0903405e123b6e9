package dev.sluice.core.transport;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;

/**
 * Turns a provider's host name into addresses, at connect time. The default is the system's
 * resolver ({@link InetAddress#getAllByName}); tests inject their own to stand for a name that
 * resolves somewhere they choose. Whatever it answers, the transport refuses to connect when an
 * address is link-local or a cloud metadata endpoint (see {@link JettyTransport}).
 */
@FunctionalInterface
public interface HostResolver {
  /** The system resolver. */
  HostResolver SYSTEM = host -> List.of(InetAddress.getAllByName(host));

  /**
   * The addresses of {@code host} (a name or a literal address). May block (DNS); it is called on
   * one of the transport's threads, never on the engine's.
   *
   * @throws UnknownHostException when the name does not resolve
   */
  List<InetAddress> resolve(String host) throws UnknownHostException;
}
