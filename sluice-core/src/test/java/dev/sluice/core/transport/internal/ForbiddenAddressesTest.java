package dev.sluice.core.transport.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Link-local and metadata addresses are refused in every spelling; ordinary ones are not. */
class ForbiddenAddressesTest {
  @ParameterizedTest
  @ValueSource(strings = {"169.254.169.254", "169.254.0.1", "169.254.255.255", "fe80::1", "febf::1", "fd00:ec2::254", "100.100.100.200",
      "::ffff:169.254.169.254", "::169.254.169.254"})
  void refused(String literal) throws Exception {
    assertThat(ForbiddenAddresses.why(InetAddress.getByName(literal))).as(literal).isPresent();
  }

  @ParameterizedTest
  @ValueSource(strings = {"127.0.0.1", "10.0.0.1", "169.253.1.1", "169.255.1.1", "8.8.8.8", "::1", "fec0::1", "fd00:ec2::253", "2001:db8::1",
      "100.100.100.201", "::"})
  void allowed(String literal) throws Exception {
    assertThat(ForbiddenAddresses.why(InetAddress.getByName(literal))).as(literal).isEmpty();
  }
}
