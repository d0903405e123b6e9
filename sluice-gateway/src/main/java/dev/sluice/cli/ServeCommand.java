package dev.sluice.cli;

import dev.sluice.core.policy.ListenAddress;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code sluice serve}: the HTTP egress gateway, until Ctrl-C (graceful stop). */
@Command(
    name = "serve",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    description = {
      "Run the HTTP egress gateway: agents send METHOD http://LISTEN/{provider}/{path} with",
      "their own token; Sluice injects the provider credential, paces, retries and answers",
      "(docs/GATEWAY.md).",
      "",
      "Without --config: the tour. examples/sluice.yaml is served with its providers pointed",
      "at a fake provider in this process, tokens are generated for unset token variables",
      "and printed, with a curl line to paste.",
      "",
    })
final class ServeCommand implements Callable<Integer> {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Option(names = "--config", paramLabel = "FILE", description = "The policy file (sluice.yaml). Default: the tour on examples/sluice.yaml.")
  Path config;

  @Option(names = "--listen", paramLabel = "HOST:PORT", description = "Listen here instead of the policy's listen.")
  String listen;

  @Override
  public Integer call() throws InterruptedException {
    Optional<ListenAddress> at = Optional.empty();
    if (listen != null) {
      try {
        at = Optional.of(ListenAddress.parse(listen));
      } catch (IllegalArgumentException e) {
        throw new CliErrors.UserError("--listen: " + e.getMessage());
      }
    }
    ServeSession session = ServeSession.start(Optional.ofNullable(config), at, name -> Optional.ofNullable(System.getenv(name)),
        spec.commandLine().getOut());
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      session.close();
      stopped.countDown();
    }, "sluice-serve-stop"));
    stopped.await();
    return 0;
  }
}
