package dev.sluice.cli;

import java.io.PrintWriter;
import java.io.StringWriter;
import picocli.CommandLine;

/** Runs the real {@code sluice} command line in-process with captured stdout and stderr. */
record CliRun(int exit, String out, String err) {

  static CliRun of(String... args) {
    CommandLine cli = SluiceCli.commandLine();
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    cli.setOut(new PrintWriter(out, true));
    cli.setErr(new PrintWriter(err, true));
    int exit = cli.execute(args);
    return new CliRun(exit, out.toString(), err.toString());
  }
}
