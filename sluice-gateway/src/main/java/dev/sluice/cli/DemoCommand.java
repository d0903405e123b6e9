package dev.sluice.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.core.engine.Outcome;
import dev.sluice.core.engine.OutcomeCode;
import dev.sluice.core.engine.QueuedRequest;
import dev.sluice.core.policy.Provider;
import dev.sluice.core.policy.RequestClass;
import dev.sluice.fake.Attempt;
import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code sluice demo}: the seed's failure sequence, steps 1–4, played on the wall clock against a
 * fake provider started in the same process, with a readable timeline and a closing table, or one
 * JSON object ({@code --json}). Sluice keeps its journal in the embedded store (SQLite) in a
 * temporary directory, deleted before the command ends. Exit 0 when the run went as the seed
 * expects, 1 when it did not.
 */
@Command(
    name = "demo",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    description = {
      "Play the seed's failure sequence against a fake provider started in this process:",
      "  1. three agent tasks on one account scope issue the same safe read;",
      "  2. the provider answers the first with 429 Retry-After: N, and the whole scope",
      "     waits (not just that task) until N seconds have passed;",
      "  3. after the delay all three succeed, spread out rather than in one burst;",
      "  4. a fourth task creates a transfer; Sluice gives the write one idempotency",
      "     key; the provider saves it, then drops the connection (outcome unknown);",
      "     Sluice looks the transfer up by its key instead of sending it again, and",
      "     the provider holds exactly one transfer.",
      "  5. a fifth task's report read meets Retry-After: 6, past its class's 3 s time",
      "     budget: Sluice stops it and escalates; the operator gets the dossier (no",
      "     secret, no body) and cancels the task; the transfer it queued meanwhile",
      "     never wakes, checked at the provider after its original due time.",
      "Prints who sent what, who waited and why, then what each agent was told. The",
      "counts come from the fake provider's own log of what it received.",
      "",
      "Sluice keeps its journal in the embedded store: a real SQLite journal in a",
      "temporary directory, deleted at exit.",
      "",
    },
    footer = {
      "",
      "Examples:",
      "  sluice demo",
      "  sluice demo --retry-after 5",
      "  sluice demo --json | jq '.steps[1].attempts | length'     (0: nothing sent while held)",
      "  sluice demo --json | jq '.steps[3].records | length'      (1: the transfer exists once)",
      "  sluice demo --json | jq '.steps[4].escalations[0].dossier'  (what the operator saw)",
    })
final class DemoCommand implements Callable<Integer> {

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Option(names = "--retry-after", paramLabel = "N", defaultValue = "2",
      description = "Seconds of Retry-After in the provider's 429 (1-60). Default: 2.")
  int retryAfter;

  @Option(names = "--json",
      description = "Print one JSON object, {\"steps\": [{\"step\", \"title\", \"attempts\", \"outcomes\"}]}, instead of the timeline.")
  boolean json;

  @Override
  public Integer call() throws InterruptedException, JsonProcessingException {
    if (retryAfter < 1 || retryAfter > 60) {
      throw new CliErrors.UserError("--retry-after: expected whole seconds from 1 to 60, got " + retryAfter);
    }
    PrintWriter out = spec.commandLine().getOut();
    if (!json) {
      out.println("sluice demo: the seed's steps 1-5 against a fake provider in this process (Retry-After: " + retryAfter + " s);"
          + " journal: the embedded store, a real SQLite journal in a temporary directory, deleted at exit");
      out.flush();
    }
    DemoScenario.Report r = DemoScenario.play(retryAfter);
    List<String> problems = problems(r);
    if (json) {
      out.println(new ObjectMapper().writeValueAsString(DemoSteps.json(r)));
    } else {
      printTimeline(out, r);
      printTable(out, r);
      printSummary(out, r);
      printWrite(out, r);
      printEscalation(out, r);
    }
    out.flush();
    if (!problems.isEmpty()) {
      spec.commandLine().getErr().println("sluice demo: this run did not go as the seed expects: " + String.join("; ", problems));
      return CliErrors.INTERNAL;
    }
    return 0;
  }

  /** What would make this run a failure of the seed's test. */
  static List<String> problems(DemoScenario.Report r) {
    List<String> p = new ArrayList<>();
    for (Outcome o : r.outcomes()) {
      if (o.outcome() != OutcomeCode.SUCCEEDED) {
        p.add(o.taskId() + " ended " + o.outcome().code() + " (" + o.reason() + ")");
      }
    }
    List<Attempt> after429 = r.attempts().stream().filter(a -> a.status() != 429).toList();
    if (after429.stream().anyMatch(a -> a.arrivedAt().isBefore(r.heldUntil()))) {
      p.add("a request reached the provider while the scope was held");
    }
    if (after429.stream().map(Attempt::arrivedAt).distinct().count() < after429.size()) {
      p.add("retries arrived at the same instant");
    }
    p.addAll(writeProblems(r.write()));
    p.addAll(escalationProblems(r.escalated()));
    return p;
  }

  /** Step 5's rules: the read stopped for a person, the decision was cancel, nothing of the task left after its 429. */
  static List<String> escalationProblems(DemoScenario.Escalated e) {
    List<String> p = new ArrayList<>();
    if (e.outcomes().get(0).outcome() != OutcomeCode.BUDGET_EXHAUSTED) {
      p.add("step 5: the report read ended " + e.outcomes().get(0).outcome().code() + ", not budget_exhausted");
    }
    if (e.escalation().trigger() != dev.sluice.core.escalation.Trigger.WAIT_BUDGET_EXHAUSTED) {
      p.add("step 5: the escalation's trigger is " + e.escalation().trigger().code());
    }
    if (e.escalation().decision().map(d -> d.option() != dev.sluice.core.escalation.DecisionOption.CANCEL).orElse(true)) {
      p.add("step 5: the escalation was not decided cancel");
    }
    if (e.outcomes().get(1).outcome() != OutcomeCode.CANCELLED) {
      p.add("step 5: the waiting transfer ended " + e.outcomes().get(1).outcome().code() + ", not cancelled");
    }
    if (e.attempts().size() != 1 || e.attempts().get(0).status() != 429) {
      p.add("step 5: the provider received " + e.attempts().size() + " request(s) from " + DemoScenario.ESCALATION_TASK + ", not just the one 429");
    }
    if (!e.checkedAt().isAfter(e.writeDueAt())) {
      p.add("step 5: the provider's log was read before the transfer's original due time");
    }
    return p;
  }

  /** Step 4's rules: one record, one key on every POST, success established by a look-up. */
  static List<String> writeProblems(DemoScenario.Write w) {
    List<String> p = new ArrayList<>();
    Outcome o = w.outcome();
    if (o.outcome() != OutcomeCode.SUCCEEDED) {
      p.add(o.taskId() + " ended " + o.outcome().code() + " (" + o.reason() + ")");
    } else if (!o.reconciled()) {
      p.add("the write's success was not established by a look-up (no reconciliation)");
    }
    if (w.records().size() != 1) {
      p.add("the provider holds " + w.records().size() + " transfers, not exactly one");
    }
    List<Attempt> posts = w.posts();
    if (posts.isEmpty()) {
      p.add("the write never reached the provider");
    } else if (posts.stream().anyMatch(a -> a.idempotencyKey().isEmpty())
        || posts.stream().map(a -> a.idempotencyKey().orElse("")).distinct().count() > 1) {
      p.add("the POSTs did not all carry the same idempotency key");
    }
    return p;
  }

  private static String rel(DemoScenario.Report r, Instant t) {
    double s = Duration.between(r.start(), t).toNanos() / 1e9;
    return String.format(Locale.ROOT, "%+8.3f", s);
  }

  private static void line(PrintWriter out, String time, String who, String what) {
    out.printf(Locale.ROOT, "  %-9s %-9s %s%n", time, who, what);
  }

  private static void printTimeline(PrintWriter out, DemoScenario.Report r) {
    Provider p = r.policy().provider(DemoScenario.PROVIDER).orElseThrow();
    RequestClass read = r.policy().requestClass(RequestClass.READ);
    out.println("  provider " + p.id() + " at " + p.baseUrl() + "; scope " + p.scope() + ": " + p.sharedScope().maxConcurrentRequests()
        + " in flight at most, " + p.sharedScope().maxDelayedRequests() + " waiting at most");
    out.println("  route GET /v1/invoices/{id}: class read (" + read.maxAttempts() + " attempts, " + read.maxWait().toSeconds()
        + " s of waiting at most); the credential is added by Sluice, the agents never see it");
    out.println();
    line(out, "time (s)", "who", "what");
    record Event(Instant at, String who, String what) {}
    List<Event> events = new ArrayList<>();
    for (String task : DemoScenario.TASKS) {
      events.add(new Event(r.start(), task, "asks Sluice for GET " + DemoScenario.TARGET));
    }
    events.add(new Event(r.start(), "Sluice", "nothing is known of scope " + r.hold().scope() + " yet: one request probes it, the others wait for its answer"));
    Map<String, Integer> attemptNo = new HashMap<>();
    for (Attempt a : r.attempts()) {
      String task = a.task().orElse("?");
      int n = attemptNo.merge(task, 1, Integer::sum);
      String answer = a.status() == 429 ? "429 Too Many Requests, Retry-After: " + r.retryAfterSeconds() : String.valueOf(a.status());
      events.add(new Event(a.arrivedAt(), task, "-> provider: " + a.method() + " " + a.path() + " (attempt " + n + ")  <- " + answer));
    }
    Instant received = r.heldUntil().minusSeconds(r.retryAfterSeconds());
    events.add(new Event(received, "Sluice", "scope " + r.hold().scope() + " held until " + rel(r, r.heldUntil()).trim() + " s ("
        + r.hold().source() + "), published before any retry was planned: nobody on the scope may send"));
    for (QueuedRequest q : r.waiting().stream().sorted(Comparator.comparing(QueuedRequest::dueAt)).toList()) {
      String why = q.nextAttempt() > 1 ? "its retry (attempt " + q.nextAttempt() + ")" : "its first attempt, held by the scope, not by an error of its own";
      events.add(new Event(received, q.taskId(), "waits: " + why + "; due " + rel(r, q.dueAt()).trim() + " s"));
    }
    for (Outcome o : r.outcomes()) {
      events.add(new Event(o.finishedAt(), o.taskId(), "is told: " + o.outcome().code() + " after " + o.attempts() + " attempt"
          + (o.attempts() == 1 ? "" : "s") + ", " + String.format(Locale.ROOT, "%.3f", o.waitedSeconds()) + " s waited in Sluice"));
    }
    events.stream().sorted(Comparator.comparing(Event::at)).forEach(e -> line(out, rel(r, e.at()), e.who(), e.what()));
    out.println();
  }

  private static void printTable(PrintWriter out, DemoScenario.Report r) {
    out.printf(Locale.ROOT, "  %-8s %-12s %-9s %-10s %s%n", "task", "outcome", "attempts", "waited", "last status");
    List<Outcome> all = new ArrayList<>(r.outcomes());
    all.add(r.write().outcome());
    all.addAll(r.escalated().outcomes());
    for (Outcome o : all) {
      out.printf(Locale.ROOT, "  %-8s %-12s %-9d %-10s %s%n", o.taskId(), o.outcome().code(), o.attempts(),
          String.format(Locale.ROOT, "%.3f s", o.waitedSeconds()), o.lastStatus().isPresent() ? String.valueOf(o.lastStatus().getAsInt()) : "-");
    }
    out.println();
  }

  private static void printSummary(PrintWriter out, DemoScenario.Report r) {
    List<Attempt> all = r.attempts();
    Map<Integer, Long> byStatus = new java.util.TreeMap<>();
    all.forEach(a -> byStatus.merge(a.status(), 1L, Long::sum));
    List<String> counts = byStatus.entrySet().stream().map(e -> e.getValue() + " x " + e.getKey()).toList();
    Instant received = r.heldUntil().minusSeconds(r.retryAfterSeconds());
    long duringHold = all.stream().filter(a -> a.status() != 429 && a.arrivedAt().isBefore(r.heldUntil())).count();
    out.println("  For the reads, the provider received " + all.size() + " requests (" + String.join(", ", counts) + "); "
        + (duringHold == 0 ? "none" : String.valueOf(duringHold)) + " while the scope was held (" + rel(r, received).trim() + " to "
        + rel(r, r.heldUntil()).trim() + " s).");
    List<Instant> later = all.stream().filter(a -> a.status() != 429).map(Attempt::arrivedAt).sorted().toList();
    if (later.size() > 1) {
      double spread = Duration.between(later.get(0), later.get(later.size() - 1)).toNanos() / 1e9;
      out.println("  The reads after the hold arrived at " + String.join(", ", later.stream().map(t -> rel(r, t).trim()).toList())
          + " s: spread over " + String.format(Locale.ROOT, "%.3f", spread) + " s, not one burst.");
    }
  }

  private static void printWrite(PrintWriter out, DemoScenario.Report r) {
    DemoScenario.Write w = r.write();
    Provider p = r.policy().provider(DemoScenario.PROVIDER).orElseThrow();
    RequestClass cls = r.policy().requestClass(RequestClass.IDEMPOTENT_WRITE);
    out.println();
    out.println("  step 4: route POST " + DemoScenario.WRITE_PATH + ": class " + cls.name() + " (" + cls.maxAttempts()
        + " attempts at most); the provider honours " + p.idempotencyHeader().orElse("?") + "; look-up GET "
        + DemoScenario.WRITE_PATH + "?idempotency_key={idempotency_key}; journal " + r.journal() + " (deleted at exit)");
    out.println();
    line(out, "time (s)", "who", "what");
    String key = w.posts().stream().flatMap(a -> a.idempotencyKey().stream()).findFirst().orElse("(none)");
    line(out, rel(r, w.start()), DemoScenario.WRITE_TASK, "asks Sluice for POST " + DemoScenario.WRITE_PATH + " " + DemoScenario.WRITE_BODY);
    line(out, rel(r, w.start()), "Sluice", "gives the write idempotency key " + key + " and journals it before anything is sent");
    int n = 0;
    for (Attempt a : w.attempts()) {
      if (a.method().equals("POST")) {
        n++;
        String answer = a.result() == Attempt.Result.DROPPED
            ? "connection dropped after the provider saved it: outcome unknown"
            : String.valueOf(a.status());
        line(out, rel(r, a.arrivedAt()), a.task().orElse("?"), "-> provider: POST " + a.path() + ", "
            + p.idempotencyHeader().orElse("Idempotency-Key") + ": " + a.idempotencyKey().orElse("(none)") + " (attempt " + n + ")  <- " + answer);
      } else {
        line(out, rel(r, a.arrivedAt()), "Sluice", "looks the transfer up by its idempotency key: -> provider: " + a.method() + " " + a.path()
            + (a.query().isEmpty() ? "" : "?" + a.query()) + "  <- " + a.status());
      }
    }
    Outcome o = w.outcome();
    if (o.reconciled() && o.outcome() == OutcomeCode.SUCCEEDED) {
      line(out, rel(r, o.finishedAt()), "Sluice", "found: reconciled, nothing resent");
    }
    line(out, rel(r, o.finishedAt()), o.taskId(), "is told: " + o.outcome().code() + " after " + o.attempts() + " attempt"
        + (o.attempts() == 1 ? "" : "s") + (o.reconciled() ? " (reconciled by the look-up)" : ""));
    out.println();
    List<String> records = w.records().stream()
        .map(rec -> rec.id() + " (" + p.idempotencyHeader().orElse("Idempotency-Key") + ": " + rec.idempotencyKey().orElse("none") + ")").toList();
    long keys = w.posts().stream().map(a -> a.idempotencyKey().orElse("")).distinct().count();
    out.println("  The provider holds " + w.records().size() + " transfer" + (w.records().size() == 1 ? "" : "s")
        + (records.isEmpty() ? "" : ": " + String.join(", ", records)) + "; it received " + w.posts().size() + " POST"
        + (w.posts().size() == 1 ? "" : "s") + (keys == 1 ? ", every one with the same key." : ", with " + keys + " different keys."));
  }

  private static void printEscalation(PrintWriter out, DemoScenario.Report r) {
    DemoScenario.Escalated e = r.escalated();
    out.println();
    out.println("  step 5: route GET /v1/reports/{id}: class report (3 s of waiting at most); the provider answers 429 Retry-After: "
        + DemoScenario.STEP5_RETRY_AFTER);
    out.println();
    line(out, "time (s)", "who", "what");
    record Event(Instant at, String who, String what) {}
    List<Event> events = new ArrayList<>();
    events.add(new Event(e.start(), DemoScenario.ESCALATION_TASK, "asks Sluice for GET " + DemoScenario.REPORT_TARGET + " (goal: "
        + DemoScenario.ESCALATION_GOAL + ")"));
    for (Attempt a : e.attempts()) {
      events.add(new Event(a.arrivedAt(), a.task().orElse("?"), "-> provider: " + a.method() + " " + a.path() + "  <- " + a.status()));
    }
    Outcome read = e.outcomes().get(0);
    events.add(new Event(read.finishedAt(), "Sluice", "the delay is past the time budget: stops, escalates as " + e.escalation().id() + " ("
        + e.escalation().trigger().code() + ")"));
    events.add(new Event(read.finishedAt(), read.taskId(), "is told: " + read.outcome().code() + "; " + read.nextSafeAction()));
    events.add(new Event(e.writeDueAt(), DemoScenario.ESCALATION_TASK, "(its transfer, asked for meanwhile, would have left here, after the scope's hold)"));
    e.escalation().decision().ifPresent(d -> events.add(new Event(d.at(), d.by(), "decides " + d.option().code() + ": " + d.reason())));
    Outcome write = e.outcomes().get(1);
    events.add(new Event(write.finishedAt(), write.taskId(), "is told for the transfer: " + write.outcome().code()));
    events.add(new Event(e.checkedAt(), "demo", "reads the provider's log after the transfer's due time: " + e.attempts().size()
        + " request(s) from " + DemoScenario.ESCALATION_TASK + ", no transfer"));
    events.stream().sorted(Comparator.comparing(Event::at)).forEach(x -> line(out, rel(r, x.at()), x.who(), x.what()));
    out.println();
    out.println("  The operator's dossier (no credential, no body: its size, fields and digest):");
    EscalationsCommand.print(out, new ObjectMapper().valueToTree(dev.sluice.core.escalation.EscalationJson.of(e.escalation())));
  }
}
