package dev.sluice.cli;

import picocli.CommandLine;

/** Turns exceptions into one clear line on stderr and a stable exit code. */
final class CliErrors {
  /** Exit code for user mistakes: bad flags, bad input, an invalid policy file. */
  static final int USAGE = 2;
  /** Exit code for failures that are not the user's mistake. */
  static final int INTERNAL = 1;

  private CliErrors() {}

  /** A mistake in what the user gave us; printed as one line, no stack trace. */
  static final class UserError extends RuntimeException {
    UserError(String message) {
      super(message);
    }
  }

  static final class ExecutionHandler implements CommandLine.IExecutionExceptionHandler {
    @Override
    public int handleExecutionException(Exception ex, CommandLine cmd, CommandLine.ParseResult parseResult) {
      if (ex instanceof UserError) {
        cmd.getErr().println(cmd.getCommandSpec().qualifiedName(" ") + ": " + ex.getMessage());
        return USAGE;
      }
      cmd.getErr().println(cmd.getCommandSpec().qualifiedName(" ") + ": internal error: " + ex);
      if (System.getenv("SLUICE_DEBUG") != null) {
        ex.printStackTrace(cmd.getErr());
      } else {
        cmd.getErr().println("(set SLUICE_DEBUG=1 for the stack trace)");
      }
      return INTERNAL;
    }
  }

  static final class ParameterHandler implements CommandLine.IParameterExceptionHandler {
    @Override
    public int handleParseException(CommandLine.ParameterException ex, String[] args) {
      CommandLine cmd = ex.getCommandLine();
      cmd.getErr().println(cmd.getCommandSpec().qualifiedName(" ") + ": " + ex.getMessage());
      cmd.getErr().println("Try '" + cmd.getCommandSpec().qualifiedName(" ") + " --help'.");
      return USAGE;
    }
  }
}
