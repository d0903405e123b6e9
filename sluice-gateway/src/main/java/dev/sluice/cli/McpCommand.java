package dev.sluice.cli;

import dev.sluice.core.Sluice;
import dev.sluice.core.policy.Agent;
import dev.sluice.core.policy.Policy;
import dev.sluice.core.policy.PolicyLoader;
import dev.sluice.core.transport.TransportSettings;
import dev.sluice.mcp.McpAgent;
import dev.sluice.mcp.McpSettings;
import dev.sluice.mcp.SharedStdioMcp;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code sluice mcp}: Sluice's MCP tools over stdio for one agent, on an engine embedded in this
 * process on the policy's store (the journal in {@code data_dir}), or — when another {@code sluice
 * mcp} already holds that data_dir — relayed to that process's engine ({@link SharedStdioMcp}).
 * Stdout carries only MCP messages; everything else goes to stderr.
 */
@Command(
    name = "mcp",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    description = {
      "Serve Sluice's MCP tools over stdio (http_request, action_status, cancel_task,",
      "list_scopes, list_providers) for one agent, with the engine embedded in this process",
      "on the policy's store. Add it to an MCP client as a stdio server (docs/MCP.md).",
      "Several at once on one data_dir share one engine: the first holds it, the others relay to it.",
      "The gateway (sluice serve) serves the same tools over HTTP at /mcp.",
      "",
    })
final class McpCommand implements Callable<Integer> {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Option(names = "--config", paramLabel = "FILE", description = "The policy file. Default: ${DEFAULT-VALUE}.", defaultValue = "sluice.yaml")
  Path config;

  @Option(names = "--agent", paramLabel = "ID", description = "The agent to act for (agents[].id); required when the policy names several agents.")
  String agent;

  @Option(names = "--max-body-bytes", paramLabel = "N", description = "The most response body bytes shown to the model (default ${DEFAULT-VALUE}).",
      defaultValue = "" + McpSettings.DEFAULT_BODY_CAP_BYTES)
  int maxBodyBytes;

  @Override
  public Integer call() throws InterruptedException {
    if (maxBodyBytes < 0) {
      throw new CliErrors.UserError("--max-body-bytes must be 0 or more, got " + maxBodyBytes);
    }
    Policy policy = policy(config);
    McpAgent actor = agent(policy, Optional.ofNullable(agent), config);
    // The first stdio server on a data_dir runs the engine; later ones (other MCP clients on this
    // machine) relay to it, so that all of them share one view of each quota scope (docs/MCP.md).
    java.util.function.Supplier<Sluice> open = () -> Sluice.builder().policy(policy).secrets(name -> Optional.ofNullable(System.getenv(name)))
        .journalFromPolicy().auditFromPolicy()
        .transportSettings(TransportSettings.defaults().withMaxResponseBytes(policy.gateway().maxResponseBodyBytes()))
        .maxRequestBytes(policy.gateway().maxRequestBodyBytes()).build();
    // Stdout is the protocol stream: whatever else prints there (a library, a stray println) goes to stderr.
    OutputStream protocol = new FileOutputStream(FileDescriptor.out);
    PrintStream stdout = System.out;
    System.setOut(new PrintStream(new FileOutputStream(FileDescriptor.err), true, StandardCharsets.UTF_8));
    SharedStdioMcp server;
    try {
      server = SharedStdioMcp.start(open, policy.dataDir(), actor, McpSettings.defaults().withBodyCapBytes(maxBodyBytes), System.in, protocol);
    } catch (IllegalStateException | dev.sluice.core.journal.JournalException e) {
      // A missing secret, a data_dir held by a process that serves no hub, an unusable store: one line.
      System.setOut(stdout);
      throw new CliErrors.UserError(e.getMessage());
    }
    Thread stop = new Thread(server::close, "sluice-mcp-stop");
    Runtime.getRuntime().addShutdownHook(stop);
    try {
      server.awaitClosed();
    } finally {
      server.close();
      System.setOut(stdout);
      try {
        Runtime.getRuntime().removeShutdownHook(stop);
      } catch (IllegalStateException shuttingDown) {
        // the hook runs anyway; closing twice is harmless
      }
    }
    return 0;
  }

  static Policy policy(Path file) {
    String text;
    try {
      text = Files.readString(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new CliErrors.UserError("cannot read " + file + (e instanceof NoSuchFileException ? ": no such file (pass --config sluice.yaml)"
          : ": " + e.getClass().getSimpleName()));
    }
    try {
      return PolicyLoader.parse(text, file.toString());
    } catch (RuntimeException e) {
      throw new CliErrors.UserError(e.getMessage());
    }
  }

  /** The agent to act for: --agent, else the policy's only agent, else (no agents) every provider. */
  static McpAgent agent(Policy policy, Optional<String> id, Path file) {
    if (id.isPresent()) {
      return policy.agent(id.get()).map(McpAgent::of).orElseThrow(() -> new CliErrors.UserError("--agent " + id.get() + ": " + file
          + " has no agent of that id; agents: " + policy.agents().stream().map(Agent::id).collect(Collectors.joining(", ", "[", "]"))));
    }
    return switch (policy.agents().size()) {
      case 0 -> McpAgent.local(policy);
      case 1 -> McpAgent.of(policy.agents().get(0));
      default -> throw new CliErrors.UserError(file + " names " + policy.agents().size() + " agents ("
          + policy.agents().stream().map(Agent::id).collect(Collectors.joining(", ")) + "); pass --agent ID to choose whose providers to serve");
    };
  }
}
