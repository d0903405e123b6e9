package dev.sluice.cli;

import java.net.http.HttpResponse;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code sluice cancel TASK}: cancels a task on a running gateway ({@code DELETE /v1/tasks/{id}}). */
@Command(name = "cancel", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
    description = "Cancel a task on a running gateway: its queued and delayed calls never leave; each ends 'cancelled'.")
final class CancelCommand implements Callable<Integer> {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;
  @CommandLine.Mixin AdminClient admin = new AdminClient();

  @Parameters(paramLabel = "TASK", description = "The task id (the agent's Sluice-Task).")
  String task;

  @Option(names = "--agent", paramLabel = "AGENT",
      description = "Cancel only this agent's task of that name (task ids are per agent). Default: every agent that has actions of it.")
  String agent;

  @Option(names = "--json", description = "Print the gateway's JSON answer: {\"task\", \"agents\", \"cancelled\"}.")
  boolean json;

  @Override
  public Integer call() throws Exception {
    String path = "/v1/tasks/" + URLEncoder.encode(task, StandardCharsets.UTF_8).replace("+", "%20")
        + (agent == null ? "" : "?agent=" + URLEncoder.encode(agent, StandardCharsets.UTF_8));
    HttpResponse<String> r = admin.send("DELETE", path);
    if (r.statusCode() != 200) {
      spec.commandLine().getErr().println("sluice cancel: the gateway answered " + r.statusCode());
      return CliErrors.INTERNAL;
    }
    if (json) {
      spec.commandLine().getOut().println(r.body());
    } else {
      int n = new com.fasterxml.jackson.databind.ObjectMapper().readTree(r.body()).path("cancelled").asInt();
      spec.commandLine().getOut().println("task " + task + ": " + n + " pending call(s) cancelled");
    }
    return 0;
  }
}
