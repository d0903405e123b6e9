package dev.sluice.cli;

import dev.sluice.core.policy.Agent;
import dev.sluice.core.policy.Policy;
import dev.sluice.core.policy.PolicyException;
import dev.sluice.core.policy.PolicyLoader;
import dev.sluice.core.policy.Problem;
import dev.sluice.core.policy.Provider;
import dev.sluice.core.policy.RequestClass;
import dev.sluice.core.policy.Route;
import java.io.PrintWriter;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collection;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code sluice config}: work with the policy file. */
@Command(
    name = "config",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    description = "Work with the policy file (sluice.yaml).",
    subcommands = {ConfigCommand.Check.class},
    footer = {"", "Every key is described in docs/CONFIGURATION.md; examples/sluice.yaml is a complete example."})
final class ConfigCommand implements Runnable {

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }

  /**
   * {@code sluice config check FILE}: validates a policy file as the gateway would at start-up
   * (without reading any secret). Exit 0 with {@code ok: FILE} and a summary; exit 2 with every
   * problem, one per line, as {@code FILE:LINE:COL: path: message}.
   */
  @Command(
      name = "check",
      mixinStandardHelpOptions = true,
      versionProvider = VersionProvider.class,
      description = {
        "Check a policy file and print a summary of what it configures.",
        "",
        "Every mistake is reported at once, one per line, as FILE:LINE:COL: path: message",
        "(for example: sluice.yaml:12:7: providers.billing-api.routes[2].class: ...).",
        "Unknown keys are errors, with a suggestion when a known key is close.",
        "Secrets are not read: only the shape of secret_env / secret_file / token_env /",
        "token_file references is checked. No secret value is ever printed."
      },
      footer = {"", "Exit status: 0 when the file is valid, 2 when it has problems or cannot be read."})
  static final class Check implements Callable<Integer> {

    @CommandLine.Spec CommandLine.Model.CommandSpec spec;

    @Parameters(paramLabel = "FILE", description = "The policy file, e.g. examples/sluice.yaml.")
    Path file;

    @Override
    public Integer call() {
      if (!Files.exists(file)) {
        throw new CliErrors.UserError("no such file: " + file);
      }
      if (Files.isDirectory(file)) {
        throw new CliErrors.UserError(file + " is a directory; expected a policy file such as examples/sluice.yaml");
      }
      Policy policy;
      try {
        policy = PolicyLoader.load(file);
      } catch (PolicyException e) {
        PrintWriter err = spec.commandLine().getErr();
        for (Problem p : e.problems()) {
          err.println(p.render());
        }
        long counted = e.problems().stream().filter(p -> p.line() > 0 || !p.message().startsWith("...")).count();
        err.println(counted == 1 ? "1 problem in " + file : counted + " problems in " + file);
        err.flush();
        return CliErrors.USAGE;
      }
      PrintWriter out = spec.commandLine().getOut();
      out.println("ok: " + file);
      summarize(policy, out);
      out.flush();
      return 0;
    }
  }

  /** A short, secret-free summary of a valid policy. */
  static void summarize(Policy policy, PrintWriter out) {
    out.println("  listen " + policy.listen() + ", data_dir " + policy.dataDir()
        + ", store " + (policy.store().isPresent() ? "configured (distributed)" : "embedded"));
    out.println("  request classes (" + policy.requestClasses().size() + "):");
    int classWidth = width(policy.requestClasses().keySet());
    for (RequestClass c : policy.requestClasses().values()) {
      String retries = c.retryStatuses().isEmpty()
          ? "retries on no status"
          : "retries on " + c.retryStatuses().stream().map(String::valueOf).collect(Collectors.joining(" "));
      out.println("    " + pad(c.name(), classWidth) + "  max_attempts " + c.maxAttempts() + ", max_wait " + seconds(c.maxWait())
          + ", " + retries);
    }
    out.println("  providers (" + policy.providers().size() + "):");
    int providerWidth = width(policy.providers().keySet());
    for (Provider p : policy.providers().values()) {
      StringBuilder line = new StringBuilder("    ").append(pad(p.id(), providerWidth)).append("  ").append(p.baseUrl());
      line.append("  scope ").append(p.scope());
      line.append("  ").append(p.routes().size()).append(p.routes().size() == 1 ? " route" : " routes");
      line.append("  idempotency ").append(p.idempotencyHeader().orElse("none"));
      p.rate().ifPresent(r -> line.append("  rate ").append(r.requests()).append('/').append(seconds(r.per())));
      if (p.routes().stream().anyMatch(r -> r.lookup().isPresent())) {
        line.append("  look-ups ").append(p.routes().stream().filter(r -> r.lookup().isPresent()).count());
      }
      long approvals = p.routes().stream().filter(r -> r.approval() == dev.sluice.core.policy.Approval.PER_CALL).count();
      if (approvals > 0) {
        line.append("  per-call approval ").append(approvals);
      }
      out.println(line);
      for (Route r : p.routes()) {
        out.println("      " + pad(r.method(), 7) + " " + r.path() + "  " + r.requestClass()
            + (r.immutable() ? ", immutable" : "")
            + r.lookup().map(l -> ", look-up " + l.method() + " " + l.path()).orElse("")
            + (r.approval() == dev.sluice.core.policy.Approval.PER_CALL ? ", approval per_call" : ""));
      }
    }
    out.println("  agents (" + policy.agents().size() + "):");
    int agentWidth = width(policy.agents().stream().map(Agent::id).toList());
    for (Agent a : policy.agents()) {
      out.println("    " + pad(a.id(), agentWidth) + "  -> " + String.join(", ", a.providers()) + "  (token from " + a.token().describe() + ")");
    }
  }

  private static int width(Collection<String> names) {
    return names.stream().mapToInt(String::length).max().orElse(0);
  }

  private static String pad(String s, int width) {
    return s.length() >= width ? s : s + " ".repeat(width - s.length());
  }

  private static String seconds(Duration d) {
    return BigDecimal.valueOf(d.toNanos(), 9).stripTrailingZeros().toPlainString() + "s";
  }
}
