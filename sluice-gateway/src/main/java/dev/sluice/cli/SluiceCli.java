package dev.sluice.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code sluice} command line: the entry point of the launcher script and the shaded jar.
 *
 * <p>User mistakes (bad flags, a broken policy file) print one clear line and exit 2; they never
 * print a stack trace. Internal errors print one line too and exit 1; {@code SLUICE_DEBUG=1}
 * shows the stack trace.
 */
@Command(
    name = "sluice",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    description = {
      "Sluice: the deterministic transport layer between AI agents and rate-limited APIs.",
      "It paces calls under each provider's shared quota, counts every real attempt,",
      "never repeats a write whose outcome is unknown, and asks a human when it cannot know."
    },
    subcommands = {
      CommandLine.HelpCommand.class,
      ExplainCommand.class,
      ConfigCommand.class,
      FakeProviderCommand.class,
      DemoCommand.class,
      ServeCommand.class, ScopesCommand.class, CancelCommand.class, EscalationsCommand.class, DecideCommand.class,
      McpCommand.class,
      AuditCommand.class,
    },
    footer = {
      "",
      "Run 'sluice COMMAND --help' for the options of a command.",
    })
public final class SluiceCli implements Runnable {

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(System.out);
  }

  /** Builds the configured command line (shared by {@link #main} and tests). */
  public static CommandLine commandLine() {
    CommandLine cli = new CommandLine(new SluiceCli());
    cli.setExecutionExceptionHandler(new CliErrors.ExecutionHandler());
    cli.setParameterExceptionHandler(new CliErrors.ParameterHandler());
    return cli;
  }

  public static void main(String[] args) {
    System.exit(commandLine().execute(args));
  }
}
