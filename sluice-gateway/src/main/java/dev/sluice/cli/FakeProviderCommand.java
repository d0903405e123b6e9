package dev.sluice.cli;

import dev.sluice.fake.Dialect;
import dev.sluice.fake.FakeConfigException;
import dev.sluice.fake.FakeProvider;
import dev.sluice.fake.FakeProviderConfig;
import dev.sluice.fake.Quota;
import dev.sluice.fake.RetryAfterFormat;
import dev.sluice.fake.ScopeBy;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.function.Consumer;
import java.util.function.Function;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code sluice fake-provider}: runs the fake provider (a controllable rate-limited API that counts
 * every attempt) until Ctrl-C. Flags override the config file; the file overrides the defaults.
 */
@Command(
    name = "fake-provider",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    description = {
      "Run a fake rate-limited API that counts every attempt it receives.",
      "It enforces quotas, sends rate-limit headers, honours Idempotency-Key and",
      "misbehaves on cue (503s, resets, commit-then-drop, truncation, latency).",
      "",
      "Without a config it serves /records, /v1/transfers, /v1/invoices/{id},",
      "/v1/balance and /v1/operations/{id} at 10 requests/s (burst 10) per",
      "credential, with IETF RateLimit headers and Retry-After in seconds.",
      "Runs until Ctrl-C. Config file and control API: docs/FAKE_PROVIDER.md.",
      "",
    },
    footer = {
      "",
      "Examples:",
      "  sluice fake-provider --inspect",
      "  sluice fake-provider --config fake.yaml --dialect openai --rate 5",
      "  curl -s http://127.0.0.1:8099/__fake/attempts     (needs --inspect)",
    })
final class FakeProviderCommand implements Callable<Integer> {

  static final int DEFAULT_PORT = 8099;

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Option(names = "--port", paramLabel = "PORT",
      description = "Port to listen on; 0 picks a free one. Default: the config file's port, else " + DEFAULT_PORT + ".")
  Integer port;

  @Option(names = "--host", paramLabel = "ADDRESS",
      description = "Address to bind. Default: the config file's host, else 127.0.0.1.")
  String host;

  @Option(names = "--config", paramLabel = "FILE",
      description = "YAML config: routes/families, quotas, dialect, faults (docs/FAKE_PROVIDER.md). Unknown keys are refused.")
  Path config;

  @Option(names = "--inspect",
      description = "Serve the inspection API under /__fake (attempts, records, faults, reset). Off by default; it needs no credential.")
  boolean inspect;

  @Option(names = "--dialect", paramLabel = "DIALECT",
      description = "Rate-limit headers to send: ietf, legacy, openai, anthropic, github or none. Default: ietf.")
  String dialect;

  @Option(names = "--rate", paramLabel = "N",
      description = "Default quota: N requests per second per scope. Default: 10.")
  Long rate;

  @Option(names = "--burst", paramLabel = "N",
      description = "Default quota's burst (bucket size). Default: equal to the rate.")
  Long burst;

  @Option(names = "--retry-after-format", paramLabel = "FORMAT",
      description = "How Retry-After is written: seconds, http-date or none. Default: seconds.")
  String retryAfterFormat;

  @Option(names = "--scope-by", paramLabel = "SCOPE",
      description = "What a quota pool is: authorization (per credential), family (per endpoint family) or header:NAME (per account header). Default: authorization.")
  String scopeBy;

  /** Called once the provider listens; tests use it to talk to the provider and stop it. */
  Consumer<FakeProvider> onStarted = p -> { };

  @Override
  public Integer call() throws InterruptedException {
    FakeProvider.Builder builder = FakeProvider.builder();
    FakeProviderConfig base = FakeProviderConfig.defaults();
    if (config != null) {
      try {
        base = FakeProviderConfig.load(config);
      } catch (FakeConfigException e) {
        throw new CliErrors.UserError(e.getMessage());
      }
    }
    builder.config(base);
    builder.port(port != null ? port : base.port() != 0 ? base.port() : DEFAULT_PORT);
    if (host != null) {
      builder.host(host);
    }
    if (inspect) {
      builder.inspect(true);
    }
    if (dialect != null) {
      builder.dialect(named("--dialect", dialect, Dialect::fromConfigName, "one of " + Dialect.configNames()));
    }
    if (retryAfterFormat != null) {
      builder.retryAfterFormat(named("--retry-after-format", retryAfterFormat, RetryAfterFormat::fromConfigName, "seconds, http-date or none"));
    }
    if (scopeBy != null) {
      builder.scopeBy(named("--scope-by", scopeBy, ScopeBy::fromConfigName, "authorization, family or header:NAME"));
    }
    if (rate != null || burst != null) {
      Quota q = base.quota();
      long requests = rate != null ? rate : q.requests();
      long size = burst != null ? burst : rate != null ? rate : q.burst();
      try {
        builder.quota(rate != null ? Quota.perSecond(requests, size) : new Quota(requests, q.per(), size));
      } catch (IllegalArgumentException e) {
        throw new CliErrors.UserError((rate != null ? "--rate/--burst: " : "--burst: ") + e.getMessage());
      }
    }

    FakeProvider fake;
    try {
      fake = builder.start();
    } catch (IllegalStateException | IllegalArgumentException e) {
      throw new CliErrors.UserError(e.getMessage());
    }
    Thread hook = new Thread(fake::close, "sluice-fake-provider-shutdown");
    Runtime.getRuntime().addShutdownHook(hook);
    printBanner(fake);
    onStarted.accept(fake);
    fake.awaitClosed();
    try {
      Runtime.getRuntime().removeShutdownHook(hook);
    } catch (IllegalStateException shuttingDown) {
      // Ctrl-C: the hook is what closed it.
    }
    return 0;
  }

  /** The value of a named option, or one line saying what was expected. */
  private static <T> T named(String option, String value, Function<String, Optional<T>> parse, String expected) {
    return parse.apply(value).orElseThrow(() -> new CliErrors.UserError(option + ": expected " + expected + "; got '" + value + "'"));
  }

  private void printBanner(FakeProvider fake) {
    FakeProviderConfig c = fake.config();
    PrintWriter out = spec.commandLine().getOut();
    out.println("sluice fake-provider: listening on " + fake.baseUri());
    out.println("  quota: " + c.quota().requests() + " requests per " + seconds(c.quota().per())
        + " s, burst " + c.quota().burst() + ", per " + c.scopeBy().configName()
        + "; headers: " + c.dialect().configName() + "; Retry-After: " + c.retryAfterFormat().configName());
    out.println("  resources: " + String.join(", ", c.families().values().stream().map(f -> f.path()).toList()));
    out.println(c.inspect()
        ? "  inspection API: " + fake.baseUri() + "/__fake (attempts, records, operations, faults, release, reset)"
        : "  inspection API: off (start with --inspect)");
    if (!c.faults().isEmpty()) {
      out.println("  fault rules: " + c.faults().size());
    }
    out.println("Press Ctrl-C to stop.");
    out.flush();
  }

  private static String seconds(java.time.Duration d) {
    return java.math.BigDecimal.valueOf(d.toNanos(), 9).stripTrailingZeros().toPlainString();
  }
}
