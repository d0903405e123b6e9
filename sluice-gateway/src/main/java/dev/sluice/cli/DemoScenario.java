package dev.sluice.cli;

import dev.sluice.core.Call;
import dev.sluice.core.Sluice;
import dev.sluice.core.engine.Outcome;
import dev.sluice.core.engine.QueuedRequest;
import dev.sluice.core.policy.Policy;
import dev.sluice.core.policy.PolicyLoader;
import dev.sluice.core.scope.ScopeRecord;
import dev.sluice.core.transport.TransportSettings;
import dev.sluice.fake.Attempt;
import dev.sluice.fake.FakeProvider;
import dev.sluice.fake.Fault;
import dev.sluice.fake.FaultRule;
import dev.sluice.fake.StoredRecord;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The seed's steps 1–4 played on the wall clock against a fake provider, with Sluice (the library
 * facade, real HTTP transport, the embedded SQLite journal in a temporary directory) in front of
 * it. Steps 1–3: the provider's first invoice read gets {@code 429 Retry-After: N}, and three agent
 * tasks read the same invoice on one account scope. Step 4, once they are done: one task creates a
 * transfer on a route with an idempotency header and a look-up by key; the provider saves the
 * first POST and then drops the connection. The temporary directory is deleted before {@link
 * #play} returns.
 */
final class DemoScenario {
  static final String PROVIDER = "demo-api";
  static final String SCOPE = "account:demo";
  static final String TARGET = "/v1/invoices/inv_1";
  static final List<String> TASKS = List.of("task-1", "task-2", "task-3");
  static final String WRITE_TASK = "task-4";
  static final String WRITE_PATH = "/v1/transfers";
  static final String WRITE_FAMILY = "transfers";
  static final String WRITE_BODY = "{\"source\":\"acct_17\",\"destination\":\"acct_42\",\"amount\":12500,\"currency\":\"USD\"}";
  static final String REPORT_TARGET = "/v1/reports/rep_5";
  static final String ESCALATION_TASK = "task-5";
  static final String ESCALATION_GOAL = "publish the monthly revenue report";
  /** Step 5: the provider's Retry-After, past the report class's 3 s time budget. */
  static final int STEP5_RETRY_AFTER = 6;
  static final String OPERATOR = "demo-operator";
  private static final Duration PATIENCE = Duration.ofSeconds(30);

  /**
   * What happened, for the timeline and the JSON. {@code attempts} are the provider's log of the
   * invoice reads (steps 1–3); step 4 is in {@code write}; {@code journal} is the SQLite file the
   * run used (already deleted).
   */
  record Report(
      Instant start, int retryAfterSeconds, Policy policy, List<Attempt> attempts, ScopeRecord hold, List<QueuedRequest> waiting,
      List<Outcome> outcomes, Write write, Escalated escalated, Path journal) {

    /** When the scope's hold ended (the 429's {@code next_allowed_at}). */
    Instant heldUntil() {
      return hold.nextAllowedAt().orElseThrow();
    }
  }

  /**
   * Step 4: the write, from its submission on.
   *
   * @param start when the task asked Sluice for the write
   * @param attempts every attempt the provider received for it (the POSTs and the look-ups)
   * @param outcome what the task was told
   * @param records the transfers the provider holds at the end
   */
  record Write(Instant start, List<Attempt> attempts, Outcome outcome, List<StoredRecord> records) {

    List<Attempt> posts() {
      return attempts.stream().filter(a -> a.method().equals("POST")).toList();
    }
  }

  /**
   * Step 5: a read whose time budget the provider's delay exceeds, escalated; the same task's write
   * waits behind the scope's hold; the operator cancels the task; nothing of it ever leaves.
   *
   * @param start when the task asked for the report
   * @param attempts every attempt the provider received from the task
   * @param outcomes what the task was told: the report read, then the cancelled write
   * @param escalation the escalation as the operator saw it, decided
   * @param writeDueAt when the cancelled write would have left
   * @param checkedAt when the provider's log was read, after {@code writeDueAt}
   */
  record Escalated(Instant start, List<Attempt> attempts, List<Outcome> outcomes, dev.sluice.core.escalation.Escalation escalation,
      Instant writeDueAt, Instant checkedAt) {}

  private DemoScenario() {}

  static Policy policy(FakeProvider fake, Path dataDir) {
    return PolicyLoader.parse("""
        data_dir: "%s"
        request_classes:
          read:             {max_attempts: 4, max_wait_seconds: 90,  retry_statuses: [408, 429, 500, 502, 503, 504]}
          idempotent_write: {max_attempts: 3, max_wait_seconds: 120, retry_statuses: [408, 429, 502, 503, 504]}
          uncertain_write:  {max_attempts: 1, max_wait_seconds: 0,   retry_statuses: []}
          report:           {max_attempts: 4, max_wait_seconds: 3,   retry_statuses: [408, 429, 500, 502, 503, 504]}
        providers:
          %s:
            base_url: %s
            credential: {header: Authorization, format: "Bearer {secret}", secret_env: DEMO_API_TOKEN}
            scope: %s
            shared_scope: {max_delayed_requests: 25, max_concurrent_requests: 2}
            idempotency_header: Idempotency-Key
            routes:
              - {method: GET, path: "/v1/invoices/{id}", class: read}
              - {method: GET, path: "/v1/reports/{id}", class: report}
              - {method: POST, path: "%s", class: idempotent_write,
                 lookup: {method: GET, path: "%s?idempotency_key={idempotency_key}"}}
        """.formatted(dataDir.toString().replace("\\", "/"), PROVIDER, fake.baseUri(), SCOPE, WRITE_PATH, WRITE_PATH), "demo.yaml");
  }

  /**
   * Plays the sequence and returns what the provider received and what the agents were told.
   *
   * @throws IllegalStateException when something does not finish within 30 s
   */
  static Report play(int retryAfterSeconds) throws InterruptedException {
    FaultRule first429 = FaultRule.of(Fault.rateLimited(Duration.ofSeconds(retryAfterSeconds))).path("/v1/invoices/{id}");
    FaultRule firstPostDropped = FaultRule.of(Fault.dropAfterCommit()).method("POST").path(WRITE_PATH);
    FaultRule reportHeld = FaultRule.of(Fault.rateLimited(Duration.ofSeconds(STEP5_RETRY_AFTER))).path("/v1/reports/{id}");
    Path dataDir = createTempDir();
    try (FakeProvider fake = FakeProvider.builder().fault(first429).fault(firstPostDropped).fault(reportHeld).start()) {
      Policy policy = policy(fake, dataDir);
      Instant start;
      ScopeRecord hold;
      List<QueuedRequest> waiting;
      List<Outcome> outcomes = new ArrayList<>();
      Instant writeStart;
      Outcome written;
      Escalated escalated;
      // Sluice opens the policy's journal (the embedded SQLite one in data_dir) and closes it.
      try (Sluice sluice = Sluice.builder().policy(policy).journalFromPolicy()
          .secrets(name -> name.equals("DEMO_API_TOKEN") ? Optional.of("demo-secret") : Optional.empty())
          .transportSettings(TransportSettings.defaults().withTaskHeader("Sluice-Task"))
          .build()) {
        start = Clock.systemUTC().instant();
        // Step 1: three agent tasks issue the same safe read on one account scope.
        List<CompletableFuture<Outcome>> futures = new ArrayList<>();
        for (String task : TASKS) {
          futures.add(sluice.submit(Call.get(PROVIDER, TARGET, task)));
        }
        // Step 2: once the 429 is in, everything on the scope waits; look at the queue then.
        hold = awaitHold(sluice);
        waiting = awaitQueue(sluice);
        // Step 3: everyone gets an answer.
        for (CompletableFuture<Outcome> f : futures) {
          outcomes.add(await(f, PATIENCE.toSeconds() + retryAfterSeconds));
        }
        // Step 4: a write; Sluice gives it one idempotency key, journaled before it is sent.
        writeStart = Clock.systemUTC().instant();
        written = await(sluice.submit(Call.builder(PROVIDER, "POST", WRITE_PATH).task(WRITE_TASK)
            .header("Content-Type", "application/json").body(WRITE_BODY).build()), PATIENCE.toSeconds());
        escalated = step5(sluice, fake);
      }
      List<Attempt> reads = fake.attempts().stream().filter(a -> a.path().startsWith("/v1/invoices/")).toList();
      List<Attempt> writes = fake.attempts().stream().filter(a -> a.path().startsWith(WRITE_PATH) && a.task().orElse("").equals(WRITE_TASK))
          .toList();
      List<StoredRecord> records = fake.records(WRITE_FAMILY).stream().filter(r -> !r.deleted()).toList();
      return new Report(start, retryAfterSeconds, policy, reads, hold, waiting, outcomes,
          new Write(writeStart, writes, written, records), escalated, dataDir.resolve("sluice.db"));
    } finally {
      deleteTree(dataDir);
    }
  }

  /**
   * Step 5 on the wall clock: the report read meets Retry-After 6 s, past its class's 3 s budget,
   * and stops at once, escalated; the task's transfer, asked for next, waits behind the scope's
   * hold; the operator reads the dossier and cancels the task; the demo then waits past the
   * transfer's original due time and reads the provider's log.
   */
  private static Escalated step5(Sluice sluice, FakeProvider fake) throws InterruptedException {
    Instant start = Clock.systemUTC().instant();
    dev.sluice.core.Submission report = sluice.start(Call.builder(PROVIDER, "GET", REPORT_TARGET).task(ESCALATION_TASK)
        .goal(ESCALATION_GOAL).build());
    Outcome reportOutcome = await(report.outcome(), PATIENCE.toSeconds());
    dev.sluice.core.escalation.Escalation open = sluice.escalations().stream()
        .filter(e -> e.open() && e.dossier().taskId().equals(ESCALATION_TASK)).findFirst()
        .orElseThrow(() -> new IllegalStateException("step 5: no escalation was raised for " + ESCALATION_TASK + " (" + reportOutcome.reason() + ")"));
    dev.sluice.core.Submission write = sluice.start(Call.builder(PROVIDER, "POST", WRITE_PATH).task(ESCALATION_TASK)
        .header("Content-Type", "application/json").body(WRITE_BODY).build());
    Instant end = Clock.systemUTC().instant().plusSeconds(5);
    Optional<QueuedRequest> queued = Optional.empty();
    while (queued.isEmpty() && Clock.systemUTC().instant().isBefore(end)) {
      queued = sluice.queue(PROVIDER).stream().filter(q -> q.taskId().equals(ESCALATION_TASK)).findFirst();
      if (queued.isEmpty()) {
        Thread.sleep(1); // a demo watching a live process, not a test: polling is fine here
      }
    }
    Instant due = queued.map(QueuedRequest::dueAt).orElseThrow(() -> new IllegalStateException("step 5: the transfer did not wait behind the hold"));
    sluice.decide(open.id(), dev.sluice.core.escalation.DecisionRequest.of(dev.sluice.core.escalation.DecisionOption.CANCEL, OPERATOR,
        "the report can wait for tonight's run: cancel the task"));
    Outcome writeOutcome = await(write.outcome(), PATIENCE.toSeconds());
    // Past the original due time, and then some: the cancelled work must never wake.
    long wait = Duration.between(Clock.systemUTC().instant(), due.plusSeconds(1)).toMillis();
    if (wait > 0) {
      Thread.sleep(wait);
    }
    Instant checked = Clock.systemUTC().instant();
    List<Attempt> attempts = fake.attempts().stream().filter(a -> a.task().orElse("").equals(ESCALATION_TASK)).toList();
    return new Escalated(start, attempts, List.of(reportOutcome, writeOutcome), sluice.escalation(open.id()).orElseThrow(), due, checked);
  }

  private static Outcome await(CompletableFuture<Outcome> f, long seconds) throws InterruptedException {
    try {
      return f.get(seconds, TimeUnit.SECONDS);
    } catch (ExecutionException | TimeoutException e) {
      throw new IllegalStateException("an agent got no outcome in time (" + e + ")", e);
    }
  }

  private static Path createTempDir() {
    try {
      return Files.createTempDirectory("sluice-demo-");
    } catch (IOException e) {
      throw new UncheckedIOException("could not create a temporary directory for the demo's journal", e);
    }
  }

  /** Deletes the demo's journal directory; a file that will not go is left, not fatal to the demo. */
  private static void deleteTree(Path dir) {
    try (var paths = Files.walk(dir)) {
      paths.sorted(Comparator.reverseOrder()).forEach(p -> {
        try {
          Files.deleteIfExists(p);
        } catch (IOException e) {
          p.toFile().deleteOnExit();
        }
      });
    } catch (IOException e) {
      dir.toFile().deleteOnExit();
    }
  }

  private static ScopeRecord awaitHold(Sluice sluice) throws InterruptedException {
    Instant end = Clock.systemUTC().instant().plus(PATIENCE);
    while (Clock.systemUTC().instant().isBefore(end)) {
      ScopeRecord r = sluice.scopes().get(0);
      if (r.nextAllowedAt().isPresent()) {
        return r;
      }
      Thread.sleep(2); // a demo watching a live process, not a test: polling is fine here
    }
    throw new IllegalStateException("the provider's 429 did not arrive within " + PATIENCE.toSeconds() + " s");
  }

  private static List<QueuedRequest> awaitQueue(Sluice sluice) throws InterruptedException {
    Instant end = Clock.systemUTC().instant().plusSeconds(5);
    List<QueuedRequest> q = sluice.queue(PROVIDER);
    while (q.size() < TASKS.size() && Clock.systemUTC().instant().isBefore(end)) {
      Thread.sleep(1);
      q = sluice.queue(PROVIDER);
    }
    return q;
  }
}
