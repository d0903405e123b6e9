package dev.sluice.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintWriter;
import java.net.http.HttpResponse;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code sluice escalations list|show ID}: a running gateway's escalations ({@code GET /v1/escalations[/{id}]}). */
@Command(name = "escalations", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
    description = "The escalations of a running gateway: actions handed to a person, with their dossiers and options.",
    subcommands = {EscalationsCommand.ListCommand.class, EscalationsCommand.ShowCommand.class, EscalationsCommand.BodyCommand.class})
final class EscalationsCommand implements Callable<Integer> {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() {
    throw new CommandLine.ParameterException(spec.commandLine(), "missing subcommand: list or show ID");
  }

  static String text(JsonNode n, String field) {
    JsonNode v = n.get(field);
    return v == null || v.isNull() ? "-" : v.isArray() ? String.join(",", iterate(v)) : v.asText();
  }

  private static java.util.List<String> iterate(JsonNode a) {
    java.util.List<String> out = new java.util.ArrayList<>();
    a.forEach(x -> out.add(x.asText()));
    return out;
  }

  @Command(name = "list", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class, description = "List the escalations, oldest first.")
  static final class ListCommand implements Callable<Integer> {
    @CommandLine.Spec CommandLine.Model.CommandSpec spec;
    @CommandLine.Mixin AdminClient admin = new AdminClient();

    @Option(names = "--open", description = "Only those awaiting a decision.")
    boolean open;

    @Option(names = "--json", description = "Print the gateway's JSON: {\"escalations\": [...]}.")
    boolean json;

    @Override
    public Integer call() throws Exception {
      HttpResponse<String> r = admin.send("GET", "/v1/escalations" + (open ? "?state=open" : ""));
      PrintWriter out = spec.commandLine().getOut();
      if (r.statusCode() != 200) {
        spec.commandLine().getErr().println("sluice escalations list: the gateway answered " + r.statusCode());
        return CliErrors.INTERNAL;
      }
      if (json) {
        out.println(r.body());
        return 0;
      }
      JsonNode list = new ObjectMapper().readTree(r.body()).path("escalations");
      if (list.isEmpty()) {
        out.println(open ? "no open escalations" : "no escalations");
        return 0;
      }
      out.printf("%-7s %-8s %-22s %-16s %-12s %-28s %s%n", "id", "state", "trigger", "task", "provider", "action", "options / decision");
      for (JsonNode n : list) {
        out.printf("%-7s %-8s %-22s %-16s %-12s %-28s %s%n", text(n, "id"), text(n, "state"), text(n, "trigger"), text(n, "task"),
            text(n, "provider"), text(n, "method") + " " + text(n, "endpoint"), n.has("decision") ? text(n, "decision") : text(n, "options"));
      }
      return 0;
    }
  }

  @Command(name = "show", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
      description = "Show one escalation: why, the dossier (no secrets, no body), and the options with their risks.")
  static final class ShowCommand implements Callable<Integer> {
    @CommandLine.Spec CommandLine.Model.CommandSpec spec;
    @CommandLine.Mixin AdminClient admin = new AdminClient();

    @Parameters(paramLabel = "ID", description = "The escalation, e.g. E-3.")
    String id;

    @Option(names = "--json", description = "Print the gateway's JSON document.")
    boolean json;

    @Override
    public Integer call() throws Exception {
      if (!id.matches("E-[1-9][0-9]{0,17}")) {
        throw new CliErrors.UserError("ID: an escalation id looks like E-3, got '" + (id.length() > 40 ? id.substring(0, 40) + "…" : id) + "'");
      }
      HttpResponse<String> r = admin.send("GET", "/v1/escalations/" + id);
      PrintWriter out = spec.commandLine().getOut();
      if (r.statusCode() == 404) {
        throw new CliErrors.UserError("there is no escalation " + id + " (sluice escalations list shows them)");
      }
      if (r.statusCode() != 200) {
        spec.commandLine().getErr().println("sluice escalations show: the gateway answered " + r.statusCode());
        return CliErrors.INTERNAL;
      }
      if (json) {
        out.println(r.body());
        return 0;
      }
      print(out, new ObjectMapper().readTree(r.body()));
      return 0;
    }
  }

  @Command(name = "body", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
      description = "Print the stored request body of an escalation's action: an audited act (escalation_body_viewed, with who and why).")
  static final class BodyCommand implements Callable<Integer> {
    @CommandLine.Spec CommandLine.Model.CommandSpec spec;
    @CommandLine.Mixin AdminClient admin = new AdminClient();

    @Parameters(paramLabel = "ID", description = "The escalation, e.g. E-3.")
    String id;

    @Option(names = "--by", required = true, paramLabel = "NAME", description = "Who looks (recorded).")
    String by;

    @Option(names = "--reason", required = true, paramLabel = "TEXT", description = "Why the summary is not enough (recorded).")
    String reason;

    @Override
    public Integer call() throws Exception {
      if (!id.matches("E-[1-9][0-9]{0,17}")) {
        throw new CliErrors.UserError("ID: an escalation id looks like E-3, got '" + (id.length() > 40 ? id.substring(0, 40) + "…" : id) + "'");
      }
      ObjectMapper json = new ObjectMapper();
      HttpResponse<String> r = admin.send("POST", "/v1/escalations/" + id + "/body",
          json.writeValueAsString(java.util.Map.of("by", by, "reason", reason)));
      if (r.statusCode() == 404 || r.statusCode() == 400) {
        throw new CliErrors.UserError(json.readTree(r.body()).path("detail").asText(r.body()));
      }
      if (r.statusCode() != 200) {
        spec.commandLine().getErr().println("sluice escalations body: the gateway answered " + r.statusCode());
        return CliErrors.INTERNAL;
      }
      byte[] body = java.util.Base64.getDecoder().decode(json.readTree(r.body()).path("body_base64").asText());
      spec.commandLine().getOut().println(new String(body, java.nio.charset.StandardCharsets.UTF_8));
      return 0;
    }
  }

  /** The human form of one escalation document. */
  static void print(PrintWriter out, JsonNode e) {
    JsonNode d = e.path("dossier");
    out.println(text(e, "id") + "  " + text(e, "state") + "  trigger " + text(e, "trigger") + "  raised " + text(e, "created_at"));
    out.println("  why: " + text(e, "detail"));
    if (d.has("goal")) {
      out.println("  goal: " + text(d, "goal"));
    }
    out.println("  action " + text(d, "action") + " of task " + text(d, "task") + ": " + text(d, "method") + " " + text(d, "endpoint")
        + " (" + text(d, "target") + ") on " + text(d, "provider") + " scope " + text(d, "scope") + ", class " + text(d, "request_class"));
    out.println("  state " + text(d, "state") + (d.has("outcome") ? ", outcome " + text(d, "outcome") : "") + "; fingerprint " + text(d, "fingerprint"));
    JsonNode b = d.path("budget");
    out.println("  budget: " + text(b, "attempts_used") + "/" + text(b, "max_attempts") + " attempts, waited " + text(b, "waited_seconds") + " s of "
        + text(b, "max_wait_seconds") + " s" + (b.has("deadline") ? ", deadline " + text(b, "deadline") : ""));
    if (d.has("idempotency_key")) {
      out.println("  idempotency key: " + text(d, "idempotency_key"));
    }
    if (d.has("provider_operation_id")) {
      out.println("  provider operation id: " + text(d, "provider_operation_id"));
    }
    if (d.has("reconciliation_query")) {
      out.println("  reconciliation query: " + text(d, "reconciliation_query"));
    }
    JsonNode body = d.path("body");
    out.println("  body: " + text(body, "size") + " bytes, sha256 " + text(body, "sha256") + ", fields [" + text(body, "top_level_fields") + "]"
        + ("true".equals(text(body, "kept")) ? "" : " (not kept)"));
    out.println("  attempts:");
    for (JsonNode a : d.path("attempts")) {
      out.println("    #" + text(a, "attempt") + " " + text(a, "kind") + " " + text(a, "started_at") + " → "
          + (a.has("status") ? text(a, "status") : text(a, "failure")) + (a.has("headers") ? "  " + a.get("headers") : ""));
    }
    if (e.has("decision")) {
      JsonNode x = e.get("decision");
      out.println("  decided: " + text(x, "option") + " by " + text(x, "by") + " at " + text(x, "at") + ": " + text(x, "reason"));
    } else {
      out.println("  options:");
      for (JsonNode o : e.path("options")) {
        out.println("    " + text(o, "option") + ("true".equals(text(o, "requires_confirmation")) ? " (needs --confirm)" : "") + ": " + text(o, "risk"));
      }
    }
  }
}
