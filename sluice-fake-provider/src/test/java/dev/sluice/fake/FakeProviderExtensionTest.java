package dev.sluice.fake;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The JUnit 5 extension: one provider per class when static, reset before every test. */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class FakeProviderExtensionTest {

  static final ManualClock CLOCK = ManualClock.at(Instant.parse("2025-01-01T00:00:00Z"));

  @RegisterExtension
  static final FakeProviderExtension FAKE =
      FakeProviderExtension.of(() -> FakeProvider.builder().clock(CLOCK).quota(Quota.perSecond(1, 1)));

  static int portOfFirstTest;

  @Test
  @Order(1)
  void aTestSpendsTheQuotaAndLeavesRecords(FakeProvider fake) {
    portOfFirstTest = fake.port();
    Http http = new Http(FAKE.baseUri());
    assertThat(http.post("/records", "{}").statusCode()).isEqualTo(201);
    assertThat(http.get("/records").statusCode()).isEqualTo(429);
  }

  @Test
  @Order(2)
  void theNextTestFindsTheSameProviderResetOnTheSameClock(FakeProvider fake) {
    assertThat(fake).isSameAs(FAKE.provider());
    assertThat(fake.port()).isEqualTo(portOfFirstTest);
    assertThat(fake.attempts()).isEmpty();
    assertThat(fake.records("records")).isEmpty();
    assertThat(new Http(fake.baseUri()).get("/records").statusCode()).isEqualTo(200);
    assertThat(fake.attempts()).singleElement().satisfies(a -> assertThat(a.arrivedAt()).isEqualTo(CLOCK.instant()));
  }
}
