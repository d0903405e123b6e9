package dev.sluice.fake;

import java.net.URI;
import java.util.Objects;
import java.util.function.Supplier;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * A JUnit 5 extension that runs a {@link FakeProvider} for a test class.
 *
 * <pre>{@code
 * static final ManualClock CLOCK = ManualClock.at(Instant.parse("2025-01-01T00:00:00Z"));
 *
 * @RegisterExtension
 * static final FakeProviderExtension FAKE =
 *     FakeProviderExtension.of(() -> FakeProvider.builder().clock(CLOCK).inspect(true));
 *
 * @Test
 * void countsAttempts(FakeProvider fake) {     // or FAKE.provider()
 *   ... call fake.baseUri() ...
 *   assertThat(fake.attempts()).hasSize(1);
 * }
 * }</pre>
 *
 * Registered on a {@code static} field, one provider serves the whole class and is {@link
 * FakeProvider#reset() reset} before each test; on an instance field, each test gets a fresh
 * provider. Test methods may declare a {@link FakeProvider} parameter. Requires junit-jupiter-api on
 * the test class path (an optional dependency of this module).
 */
public final class FakeProviderExtension
    implements BeforeAllCallback, AfterAllCallback, BeforeEachCallback, AfterEachCallback, ParameterResolver {

  private final Supplier<FakeProvider.Builder> builder;
  private FakeProvider provider;
  private boolean perClass;

  private FakeProviderExtension(Supplier<FakeProvider.Builder> builder) {
    this.builder = Objects.requireNonNull(builder, "builder");
  }

  /** A provider with the defaults. */
  public static FakeProviderExtension withDefaults() {
    return new FakeProviderExtension(FakeProvider::builder);
  }

  /** A provider built by {@code builder} (called once per provider started). */
  public static FakeProviderExtension of(Supplier<FakeProvider.Builder> builder) {
    return new FakeProviderExtension(builder);
  }

  /** The running provider; only between start and stop. */
  public FakeProvider provider() {
    if (provider == null) {
      throw new IllegalStateException("the fake provider is not running (outside a test?)");
    }
    return provider;
  }

  /** Shorthand for {@code provider().baseUri()}. */
  public URI baseUri() {
    return provider().baseUri();
  }

  @Override
  public void beforeAll(ExtensionContext context) {
    perClass = true;
    provider = builder.get().start();
  }

  @Override
  public void afterAll(ExtensionContext context) {
    stop();
  }

  @Override
  public void beforeEach(ExtensionContext context) {
    if (perClass) {
      provider.reset();
    } else {
      provider = builder.get().start();
    }
  }

  @Override
  public void afterEach(ExtensionContext context) {
    if (!perClass) {
      stop();
    }
  }

  private void stop() {
    if (provider != null) {
      provider.close();
      provider = null;
    }
  }

  @Override
  public boolean supportsParameter(ParameterContext parameterContext, ExtensionContext extensionContext) {
    return parameterContext.getParameter().getType() == FakeProvider.class;
  }

  @Override
  public Object resolveParameter(ParameterContext parameterContext, ExtensionContext extensionContext) {
    return provider();
  }
}
