package dev.sluice.core.transport.internal;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.util.Arrays;
import java.util.Optional;

/**
 * Addresses a provider connection must never reach, whatever name led there: link-local ranges
 * (169.254.0.0/16, fe80::/10 — where cloud metadata services answer), the IPv6 metadata endpoint
 * of AWS ({@code fd00:ec2::254}), Alibaba Cloud's {@code 100.100.100.200}, and the same IPv4
 * addresses in IPv4-mapped or IPv4-compatible IPv6 form. Checked on the resolved address, at
 * connect time, so a host name that resolves there (or is re-pointed there later) is refused like
 * a literal.
 */
public final class ForbiddenAddresses {
  private static final byte[] AWS_V6_METADATA = parse("fd00:ec2::254");
  private static final byte[] ALIBABA_METADATA = {100, 100, 100, (byte) 200};

  private ForbiddenAddresses() {}

  /** Why connecting to {@code a} is refused, or empty when it is allowed. */
  public static Optional<String> why(InetAddress a) {
    byte[] b = a.getAddress();
    if (a instanceof Inet6Address) {
      if (Arrays.equals(b, AWS_V6_METADATA)) {
        return Optional.of("a cloud metadata address");
      }
      if ((b[0] & 0xff) == 0xfe && (b[1] & 0xc0) == 0x80) {
        return Optional.of("a link-local address (fe80::/10)");
      }
      boolean mapped = allZero(b, 0, 10) && (b[10] & 0xff) == 0xff && (b[11] & 0xff) == 0xff;
      boolean compatible = allZero(b, 0, 12) && !(allZero(b, 12, 15) && (b[15] & 0xff) <= 1);
      if (mapped || compatible) {
        return whyV4(Arrays.copyOfRange(b, 12, 16));
      }
      return Optional.empty();
    }
    return a instanceof Inet4Address ? whyV4(b) : Optional.empty();
  }

  private static Optional<String> whyV4(byte[] b) {
    if ((b[0] & 0xff) == 169 && (b[1] & 0xff) == 254) {
      return Optional.of("a link-local address (169.254.0.0/16, where cloud metadata services answer)");
    }
    if (Arrays.equals(b, ALIBABA_METADATA)) {
      return Optional.of("a cloud metadata address");
    }
    return Optional.empty();
  }

  private static boolean allZero(byte[] b, int from, int to) {
    for (int i = from; i < to; i++) {
      if (b[i] != 0) {
        return false;
      }
    }
    return true;
  }

  private static byte[] parse(String literal) {
    try {
      return InetAddress.getByName(literal).getAddress(); // a literal: no DNS look-up
    } catch (java.net.UnknownHostException e) {
      throw new IllegalStateException(e);
    }
  }
}
