package dev.sluice.cli;

import dev.sluice.gateway.ScopeJson;
import dev.sluice.core.engine.Outcome;
import dev.sluice.core.engine.QueuedRequest;
import dev.sluice.fake.Attempt;
import dev.sluice.fake.StoredRecord;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The demo's report as the seed's steps, in the shape of {@code sluice demo --json}: {@code
 * {"steps": [{"step", "title", "attempts", "outcomes", ...}]}}. {@code attempts} is the fake
 * provider's own log, split by time: step 1 holds the attempts up to the provider's first 429,
 * step 2 those that arrived while the scope was held (none, if Sluice keeps the rule), step 3 the
 * rest. The agents' outcomes arrive in step 3. Step 4 (the write dropped after the provider saved
 * it) has every attempt the provider received for the write, its outcome, and {@code records}: the
 * transfers the provider holds at the end ({@code id}, {@code idempotency_key}, {@code
 * client_reference}, null when absent).
 */
final class DemoSteps {
  private static final DateTimeFormatter RFC3339_MILLIS = DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSSX").withZone(ZoneOffset.UTC);

  private DemoSteps() {}

  /** RFC 3339 in UTC with milliseconds, always three digits: {@code 2026-03-01T09:00:02.417Z}. */
  static String at(Instant i) {
    return RFC3339_MILLIS.format(i);
  }

  static Map<String, Object> json(DemoScenario.Report r) {
    List<Attempt> all = r.attempts();
    int first429 = 0;
    while (first429 < all.size() && all.get(first429).status() != 429) {
      first429++;
    }
    List<Attempt> step1 = all.subList(0, Math.min(first429 + 1, all.size()));
    List<Attempt> step2 = new ArrayList<>();
    List<Attempt> step3 = new ArrayList<>();
    for (Attempt a : all.subList(step1.size(), all.size())) {
      (a.arrivedAt().isBefore(r.heldUntil()) ? step2 : step3).add(a);
    }

    List<Map<String, Object>> steps = new ArrayList<>();
    Map<String, Object> s1 = step(1, "Three tasks on one account scope issue the same safe read", step1, List.of());
    s1.put("calls", DemoScenario.TASKS.stream().map(t -> call(t)).toList());
    steps.add(s1);
    Map<String, Object> s2 = step(2, "The first request gets 429 Retry-After: " + r.retryAfterSeconds()
        + "; nothing else reaches the provider on that scope until it has passed, not the other tasks either", step2, List.of());
    s2.put("scope", ScopeJson.of(r.hold()));
    s2.put("waiting", r.waiting().stream().map(DemoSteps::waiting).toList());
    steps.add(s2);
    Map<String, Object> s3 = step(3, "After the delay all three succeed, at different times, not one burst", step3, r.outcomes());
    steps.add(s3);
    DemoScenario.Write w = r.write();
    Map<String, Object> s4 = step(4, "A write with a stable idempotency key: the provider saves it, then the connection drops; Sluice"
        + " looks it up by key instead of sending it again", w.attempts(), List.of(w.outcome()));
    s4.put("records", w.records().stream().map(DemoSteps::record).toList());
    steps.add(s4);
    DemoScenario.Escalated e = r.escalated();
    Map<String, Object> s5 = step(5, "The provider asks for " + DemoScenario.STEP5_RETRY_AFTER + " s, past the report's 3 s time budget: the"
        + " read stops for a person, who gets the redacted dossier and cancels the task; its waiting transfer never wakes", e.attempts(),
        e.outcomes());
    s5.put("escalations", List.of(dev.sluice.core.escalation.EscalationJson.of(e.escalation())));
    s5.put("cancelled_due_at", at(e.writeDueAt()));
    s5.put("checked_at", at(e.checkedAt()));
    steps.add(s5);
    Map<String, Object> root = new LinkedHashMap<>();
    root.put("steps", steps);
    return root;
  }

  private static Map<String, Object> step(int n, String title, List<Attempt> attempts, List<Outcome> outcomes) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("step", n);
    m.put("title", title);
    m.put("attempts", attempts.stream().map(DemoSteps::attempt).toList());
    m.put("outcomes", outcomes.stream().map(DemoSteps::outcome).toList());
    return m;
  }

  private static Map<String, Object> call(String task) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("task", task);
    m.put("method", "GET");
    m.put("path", DemoScenario.TARGET);
    return m;
  }

  static Map<String, Object> attempt(Attempt a) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("at", at(a.arrivedAt()));
    m.put("task", a.task().orElse(null));
    m.put("method", a.method());
    m.put("path", a.path());
    m.put("query", a.query().isEmpty() ? null : a.query());
    m.put("scope", a.scope());
    m.put("status", a.status());
    m.put("idempotency_key", a.idempotencyKey().orElse(null));
    m.put("result", a.result().configName());
    return m;
  }

  static Map<String, Object> outcome(Outcome o) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("task", o.taskId());
    m.put("outcome", o.outcome().code());
    m.put("attempts", o.attempts());
    m.put("waited_seconds", seconds(o.waitedSeconds()));
    m.put("last_status", o.lastStatus().isPresent() ? o.lastStatus().getAsInt() : null);
    m.put("request_sent", o.requestSent());
    m.put("reconciled", o.reconciled());
    return m;
  }

  static Map<String, Object> record(StoredRecord r) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("id", r.id());
    m.put("idempotency_key", r.idempotencyKey().orElse(null));
    m.put("client_reference", r.clientReference().orElse(null));
    return m;
  }

  private static Map<String, Object> waiting(QueuedRequest q) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("task", q.taskId());
    m.put("next_attempt", q.nextAttempt());
    m.put("due_at", at(q.dueAt()));
    return m;
  }

  /** Seconds with millisecond precision, as a JSON number. */
  static BigDecimal seconds(double s) {
    return BigDecimal.valueOf(s).setScale(3, RoundingMode.HALF_UP);
  }
}
