package dev.sluice.cli;

import dev.sluice.core.policy.Agent;
import dev.sluice.core.policy.ListenAddress;
import dev.sluice.core.policy.Policy;
import dev.sluice.core.policy.PolicyLoader;
import dev.sluice.core.policy.SecretRef;
import dev.sluice.fake.FakeProvider;
import dev.sluice.fake.Fault;
import dev.sluice.fake.FaultRule;
import dev.sluice.core.Sluice;
import dev.sluice.gateway.Gateway;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * One running {@code sluice serve}: the gateway, and in the tour mode (no {@code --config}) the
 * fake provider that {@code examples/sluice.yaml}'s providers are pointed at, with generated
 * tokens for every token variable that is not set.
 */
final class ServeSession implements AutoCloseable {
  static final Path EXAMPLE = Path.of("examples/sluice.yaml");
  /** The address examples/sluice.yaml gives its providers: the fake provider's default port. */
  static final String EXAMPLE_UPSTREAM = "http://127.0.0.1:8099";

  final Gateway gateway;
  private final FakeProvider fake;

  private ServeSession(Gateway gateway, FakeProvider fake) {
    this.gateway = gateway;
    this.fake = fake;
  }

  /**
   * Starts serving. With {@code config} empty: the tour, on {@code examples/sluice.yaml}.
   *
   * @throws CliErrors.UserError when the file is missing or invalid, or a token is not set
   */
  static ServeSession start(Optional<Path> config, Optional<ListenAddress> listen, Function<String, Optional<String>> env, PrintWriter out) {
    return start(config, EXAMPLE, listen, env, out);
  }

  /** As {@link #start(Optional, Optional, Function, PrintWriter)}, with the tour's file given (tests run elsewhere). */
  static ServeSession start(Optional<Path> config, Path example, Optional<ListenAddress> listen, Function<String, Optional<String>> env,
      PrintWriter out) {
    boolean tour = config.isEmpty();
    Path file = config.orElse(example);
    String text;
    try {
      text = Files.readString(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new CliErrors.UserError(tour
          ? "no --config given and " + example + " was not found here; run from the repository root or pass --config sluice.yaml"
          : "cannot read " + file + (e instanceof java.nio.file.NoSuchFileException ? ": no such file" : ": " + e.getClass().getSimpleName()));
    }
    FakeProvider fake = null;
    Map<String, String> generated = new HashMap<>();
    Function<String, Optional<String>> lookup = env;
    if (tour) {
      // The first invoice read gets 429 Retry-After: 2, so the first curl shows a rate limit being absorbed.
      fake = FakeProvider.builder().fault(FaultRule.of(Fault.rateLimited(Duration.ofSeconds(2))).method("GET").path("/v1/invoices/{id}")).start();
      text = text.replace(EXAMPLE_UPSTREAM, fake.baseUri().toString());
      lookup = name -> env.apply(name).or(() -> Optional.of(generated.computeIfAbsent(name, n -> "sk-sluice-" + randomHex())));
    }
    try {
      Policy policy;
      try {
        policy = PolicyLoader.parse(text, file.toString());
      } catch (RuntimeException e) {
        throw new CliErrors.UserError(e.getMessage());
      }
      // The embedded store (or the policy's store): queued and uncertain work survives a restart.
      Gateway.Builder b = Gateway.builder(policy).env(lookup).sluice(Sluice.builder().secrets(lookup).journalFromPolicy().auditFromPolicy()).mcpHub(true);
      listen.ifPresent(b::listen);
      Gateway g;
      try {
        g = b.start();
      } catch (IllegalStateException | dev.sluice.core.journal.JournalException e) {
        // A missing secret, a busy data_dir, an unusable store: the operator's to fix, in one line.
        throw new CliErrors.UserError(e.getMessage());
      }
      printBanner(out, g, policy, fake, generated, lookup);
      return new ServeSession(g, fake);
    } catch (RuntimeException e) {
      if (fake != null) {
        fake.close();
      }
      throw e;
    }
  }

  private static void printBanner(PrintWriter out, Gateway g, Policy policy, FakeProvider fake, Map<String, String> generated,
      Function<String, Optional<String>> lookup) {
    out.println("sluice serve: gateway listening on " + g.uri() + " (" + policy.providers().size() + " providers, " + policy.agents().size() + " agents)");
    if (fake != null) {
      out.println("  tour mode: the providers of " + EXAMPLE + " point at a fake provider in this process (" + fake.baseUri() + "),");
      out.println("  whose first invoice read answers 429 Retry-After: 2; Sluice waits it out and retries.");
    }
    for (Agent a : policy.agents()) {
      if (a.token() instanceof SecretRef.Env e && generated.containsKey(e.variable())) {
        out.println("  agent " + a.id() + ": generated token (" + e.variable() + " was not set): " + generated.get(e.variable()));
      }
    }
    policy.gateway().operatorToken().ifPresent(ref -> {
      if (ref instanceof SecretRef.Env e && generated.containsKey(e.variable())) {
        out.println("  operator: generated token (" + e.variable() + " was not set): " + generated.get(e.variable()));
      }
    });
    Optional<Agent> first = policy.agents().stream().filter(a -> a.token() instanceof SecretRef.Env e && generated.containsKey(e.variable())).findFirst();
    if (first.isPresent() && policy.provider("billing-api").isPresent() && first.get().mayUse("billing-api")) {
      String token = generated.get(((SecretRef.Env) first.get().token()).variable());
      out.println();
      out.println("Try it (the first call takes ~2 s: a 429 absorbed, see Sluice-Attempts: 2):");
      out.println("  curl -i -H 'Authorization: Bearer " + token + "' " + g.uri() + "/billing-api/v1/invoices/inv_1");
      policy.gateway().operatorToken().filter(r -> r instanceof SecretRef.Env).ifPresent(r -> out.println(
          "  " + ((SecretRef.Env) r).variable() + "=" + lookup.apply(((SecretRef.Env) r).variable()).orElse("") + " ./sluice scopes --url " + g.uri()));
    }
    out.println("MCP clients: " + g.uri() + "/mcp with an agent token (Authorization: Bearer ...), or 'sluice mcp' over stdio; see docs/MCP.md.");
    out.println("Ctrl-C stops the gateway (requests in flight get up to 10 s to finish).");
    out.flush();
  }

  private static String randomHex() {
    byte[] b = new byte[16];
    new SecureRandom().nextBytes(b);
    return HexFormat.of().formatHex(b);
  }

  @Override
  public void close() {
    gateway.close();
    if (fake != null) {
      fake.close();
    }
  }
}
