package dev.sluice.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintWriter;
import java.net.http.HttpResponse;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code sluice scopes}: the scope table of a running gateway ({@code GET /v1/scopes}). */
@Command(name = "scopes", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
    description = "Show every provider scope of a running gateway: next_allowed_at, remaining, source (the seed's record).")
final class ScopesCommand implements Callable<Integer> {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;
  @CommandLine.Mixin AdminClient admin = new AdminClient();

  @Option(names = "--json", description = "Print the JSON array of scope records.")
  boolean json;

  @Override
  public Integer call() throws Exception {
    HttpResponse<String> r = admin.send("GET", "/v1/scopes");
    PrintWriter out = spec.commandLine().getOut();
    if (r.statusCode() != 200) {
      spec.commandLine().getErr().println("sluice scopes: the gateway answered " + r.statusCode());
      return CliErrors.INTERNAL;
    }
    if (json) {
      out.println(r.body());
      return 0;
    }
    out.printf("%-16s %-24s %-10s %-26s %-10s %-8s %s%n", "provider", "scope", "class", "next_allowed_at", "remaining", "reset_s", "source");
    for (JsonNode n : new ObjectMapper().readTree(r.body())) {
      out.printf("%-16s %-24s %-10s %-26s %-10s %-8s %s%n", text(n, "provider"), text(n, "scope"), text(n, "request_class"),
          text(n, "next_allowed_at"), text(n, "remaining"), text(n, "reset_after_seconds"), text(n, "source"));
    }
    return 0;
  }

  private static String text(JsonNode n, String field) {
    JsonNode v = n.get(field);
    return v == null || v.isNull() ? "-" : v.asText();
  }
}
