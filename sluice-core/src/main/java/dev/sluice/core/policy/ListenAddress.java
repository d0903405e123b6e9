package dev.sluice.core.policy;

import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Where the gateway listens ({@code listen}), written {@code HOST:PORT}: {@code 127.0.0.1:7070}
 * (the default), {@code localhost:7070}, {@code [::1]:7070}. Port 0 asks the system for a free
 * port (useful in tests).
 *
 * @param host a host name, IPv4 address, or IPv6 address without brackets
 * @param port 0–65535
 */
public record ListenAddress(String host, int port) {
  private static final Pattern HOST_NAME = Pattern.compile("[A-Za-z0-9]([A-Za-z0-9.-]{0,251}[A-Za-z0-9])?");
  private static final Pattern IPV6 = Pattern.compile("[0-9A-Fa-f:.]{2,45}");
  private static final Pattern FORM = Pattern.compile("(?:\\[([^\\]]*)\\]|([^:\\[\\]]*)):([0-9]{1,5})");

  /** {@code 127.0.0.1:7070}: loopback only, so the gateway is not reachable from the network by default. */
  public static final ListenAddress DEFAULT = new ListenAddress("127.0.0.1", 7070);

  public ListenAddress {
    Objects.requireNonNull(host, "host");
    if (!(HOST_NAME.matcher(host).matches() || (host.contains(":") && IPV6.matcher(host).matches()))) {
      throw new IllegalArgumentException("'" + host + "' is not a host name or IP address");
    }
    if (port < 0 || port > 65535) {
      throw new IllegalArgumentException("port must be 0-65535, got " + port);
    }
  }

  /**
   * Parses {@code HOST:PORT} (IPv6 in brackets).
   *
   * @throws IllegalArgumentException saying what was expected
   */
  public static ListenAddress parse(String text) {
    Matcher m = FORM.matcher(text);
    if (!m.matches()) {
      throw new IllegalArgumentException("expected HOST:PORT such as 127.0.0.1:7070 (IPv6 as [::1]:7070)");
    }
    String host = m.group(1) != null ? m.group(1) : m.group(2);
    if (m.group(1) != null && !host.contains(":")) {
      throw new IllegalArgumentException("brackets are only for IPv6 addresses, e.g. [::1]:7070");
    }
    return new ListenAddress(host, Integer.parseInt(m.group(3)));
  }

  /** {@code HOST:PORT}, with IPv6 hosts in brackets; {@link #parse} reads it back. */
  @Override
  public String toString() {
    return (host.contains(":") ? "[" + host + "]" : host) + ":" + port;
  }
}
