package dev.sluice.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.http.HttpResponse;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code sluice decide ID --option O --by NAME --reason TEXT [--confirm]}: records an operator's decision ({@code POST /v1/escalations/{id}/decision}). */
@Command(name = "decide", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
    description = {"Decide an escalation on a running gateway; the decision, who and why are recorded (journal and audit log) and carried out.",
        "Options: query_existing, retry_same_key, cancel, send_new (needs --confirm: may create a second effect), acknowledge, approve, reject;",
        "only those the escalation offers are accepted (sluice escalations show ID)."})
final class DecideCommand implements Callable<Integer> {
  private static final java.util.List<String> OPTIONS = Arrays.stream(dev.sluice.core.escalation.DecisionOption.values())
      .map(dev.sluice.core.escalation.DecisionOption::code).toList();

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;
  @CommandLine.Mixin AdminClient admin = new AdminClient();

  @Parameters(paramLabel = "ID", description = "The escalation, e.g. E-3.")
  String id;

  @Option(names = "--option", required = true, paramLabel = "OPTION", description = "What to do: one of the options the escalation offers.")
  String option;

  @Option(names = "--by", required = true, paramLabel = "NAME", description = "Who decides (recorded).")
  String by;

  @Option(names = "--reason", required = true, paramLabel = "TEXT", description = "Why (recorded).")
  String reason;

  @Option(names = "--confirm", description = "Confirm a flagged option (send_new: may create a second external effect).")
  boolean confirm;

  @Option(names = "--json", description = "Print the gateway's JSON answer: {\"escalation\", \"action\"}.")
  boolean json;

  @Override
  public Integer call() throws Exception {
    if (!id.matches("E-[1-9][0-9]{0,17}")) {
      throw new CliErrors.UserError("ID: an escalation id looks like E-3, got '" + (id.length() > 40 ? id.substring(0, 40) + "…" : id) + "'");
    }
    if (!OPTIONS.contains(option)) {
      throw new CliErrors.UserError("--option: '" + option + "' is not an option; expected one of " + String.join(", ", OPTIONS));
    }
    if (by.isBlank() || reason.isBlank()) {
      throw new CliErrors.UserError("--by and --reason must not be empty: the decision records who and why");
    }
    if (option.equals("send_new") && !confirm) {
      throw new CliErrors.UserError("send_new may create a second external effect at the provider; add --confirm if that is what you want");
    }
    ObjectMapper json = new ObjectMapper();
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("option", option);
    body.put("by", by);
    body.put("reason", reason);
    body.put("confirm", confirm);
    HttpResponse<String> r = admin.send("POST", "/v1/escalations/" + id + "/decision", json.writeValueAsString(body));
    if (r.statusCode() == 404 || r.statusCode() == 409 || r.statusCode() == 422 || r.statusCode() == 400) {
      JsonNode p = json.readTree(r.body());
      throw new CliErrors.UserError("decision not recorded: " + p.path("detail").asText(r.body()));
    }
    if (r.statusCode() != 200) {
      spec.commandLine().getErr().println("sluice decide: the gateway answered " + r.statusCode());
      return CliErrors.INTERNAL;
    }
    if (this.json) {
      spec.commandLine().getOut().println(r.body());
      return 0;
    }
    JsonNode doc = json.readTree(r.body());
    spec.commandLine().getOut().println(id + ": " + option + " recorded (by " + by + ")" + (doc.has("action")
        ? "; action " + doc.get("action").asText() + " carries it out" : ""));
    return 0;
  }
}
