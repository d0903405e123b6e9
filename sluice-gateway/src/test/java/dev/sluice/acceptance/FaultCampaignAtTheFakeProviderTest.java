package dev.sluice.acceptance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.core.Call;
import dev.sluice.core.Sluice;
import dev.sluice.core.engine.Outcome;
import dev.sluice.core.engine.OutcomeCode;
import dev.sluice.core.engine.SystemScheduler;
import dev.sluice.core.policy.Policy;
import dev.sluice.core.policy.PolicyLoader;
import dev.sluice.core.transport.JettyTransport;
import dev.sluice.core.transport.ProviderEndpoint;
import dev.sluice.core.transport.TransportSettings;
import dev.sluice.fake.Attempt;
import dev.sluice.fake.FakeProvider;
import dev.sluice.fake.Fault;
import dev.sluice.fake.FaultRule;
import dev.sluice.fake.Quota;
import dev.sluice.fake.StoredRecord;
import dev.sluice.store.sqlite.SqliteJournal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A seeded, randomized fault campaign over real sockets: in each run a few concurrent writes (to a
 * provider route with idempotency keys and a key look-up, and to one without idempotency but with a
 * client-reference look-up) meet random faults at the fake provider — drops before processing
 * (reset), drops after the commit, 503 and 429 bursts — and, in some runs, Sluice "crashes" (its
 * journal stops at once, nothing more is sent) and a new Sluice resumes from the same SQLite
 * journal. Invariants, counted at the fake provider: zero duplicate effects; zero actions lost
 * (every journaled action ends in a terminal or a person's state, and a write reported failed has
 * no effect); every attempt counted (without a crash, the attempts the outcomes report are
 * exactly the ones the provider received). Runs: {@code -Dsluice.campaign.runs=N} (default 1000),
 * seed {@code -Dsluice.campaign.seed}.
 */
class FaultCampaignAtTheFakeProviderTest {
  private static final String POLICY = """
      retry_after: {minimum_delay_seconds: 0.005, cap_seconds: 0.02}   # keeps each run tiny: a 429 holds 20 ms
      backoff: {base_seconds: 0.002, max_seconds: 0.02}
      providers:
        api:
          base_url: %s
          scope: account:acme
          idempotency_header: Idempotency-Key
          shared_scope: {max_delayed_requests: 100, max_concurrent_requests: 4}
          routes:
            - {method: POST, path: "/v1/transfers", class: idempotent_write,
               lookup: {method: GET, path: "/v1/transfers?idempotency_key={idempotency_key}"}}
        plain:
          base_url: %s
          scope: account:acme-plain
          shared_scope: {max_delayed_requests: 100, max_concurrent_requests: 4}
          routes:
            - {method: POST, path: "/records", class: idempotent_write, external_reference: client_reference,
               lookup: {method: GET, path: "/records?client_reference={external_reference}"}}
      """;

  @Test
  void randomDropsBurstsAndCrashesNeverDuplicateLoseOrMiscountAWrite() throws Exception {
    int runs = Integer.getInteger("sluice.campaign.runs", 1000);
    long seed = Long.getLong("sluice.campaign.seed", 20261129L);
    SplittableRandom random = new SplittableRandom(seed);
    Path dir = Files.createTempDirectory(Files.isDirectory(Path.of("/dev/shm")) ? Path.of("/dev/shm") : Path.of(System.getProperty("java.io.tmpdir")),
        "sluice-campaign");
    long writes = 0;
    long faults = 0;
    long crashes = 0;
    long duplicates = 0;
    long lost = 0;
    long miscounted = 0;
    long succeeded = 0;
    long reconciled = 0;
    long stopped = 0;
    long started = System.nanoTime();
    try (FakeProvider fake = FakeProvider.builder().quota(Quota.perSecond(100_000, 100_000)).idempotency("records", false).start();
        SqliteJournal journal = SqliteJournal.open(dir);
        SystemScheduler scheduler = new SystemScheduler(Clock.systemUTC())) {
      Policy policy = PolicyLoader.parse(POLICY.formatted(fake.baseUri(), fake.baseUri()), "campaign.yaml");
      ProviderEndpoint ep = ProviderEndpoint.of(fake.baseUri());
      try (JettyTransport http = JettyTransport.start(TransportSettings.defaults().withTaskHeader("Sluice-Task"),
          Map.of("api", ep.withIdempotencyHeader("Idempotency-Key"), "plain", ep))) {
        for (int run = 0; run < runs; run++) {
          String prefix = "c" + run + "-";
          long runStart = System.nanoTime();
          int n = 1 + random.nextInt(3);
          for (int i = 0; i < 1 + random.nextInt(3); i++) {
            fake.addFault(randomFault(random));
            faults++;
          }
          Sluice sluice = Sluice.builder().policy(policy).scheduler(scheduler).transport(http).journal(journal).random(random.nextLong()).build();
          List<CompletableFuture<Outcome>> futures = new ArrayList<>();
          List<Boolean> toTransfers = new ArrayList<>();
          for (int i = 0; i < n; i++) {
            boolean transfer = random.nextBoolean();
            toTransfers.add(transfer);
            String marker = prefix + i;
            Call call = transfer
                ? Call.builder("api", "POST", "/v1/transfers").task(marker).header("Content-Type", "application/json")
                    .body("{\"amount\":1,\"memo\":\"" + marker + "\"}").build()
                : Call.builder("plain", "POST", "/records").task(marker).header("Content-Type", "application/json")
                    .body("{\"name\":\"" + marker + "\"}").build();
            futures.add(sluice.submit(call));
            writes++;
          }
          List<Outcome> outcomes = new ArrayList<>();
          boolean crash = random.nextInt(100) < 30;
          if (crash) {
            crashes++;
            int after = random.nextInt(4); // crash once the provider has seen this many attempts of the run (or at once)
            awaitAttempts(fake, prefix, after, futures);
            sluice.crashForTesting();
            awaitNoPending(fake);
            Sluice second = Sluice.builder().policy(policy).scheduler(scheduler).transport(http).journal(journal).random(random.nextLong()).build();
            for (CompletableFuture<Outcome> f : second.recovered().values()) {
              outcomes.add(f.get(30, TimeUnit.SECONDS));
            }
            second.close();
          } else {
            for (CompletableFuture<Outcome> f : futures) {
              outcomes.add(f.get(30, TimeUnit.SECONDS));
            }
            sluice.close();
          }
          fake.clearFaults();
          awaitNoPending(fake);
          if (System.getProperty("sluice.campaign.trace") != null && System.nanoTime() - runStart > 100_000_000L) {
            System.out.println("slow run " + run + " crash=" + crash + " " + (System.nanoTime() - runStart) / 1_000_000 + " ms: "
                + fake.attempts().stream().filter(a -> a.task().orElse("").startsWith(prefix)).map(a -> a.method() + a.status() + a.faults()).toList());
          }

          List<Attempt> attempts = fake.attempts().stream().filter(a -> a.task().orElse("").startsWith(prefix)).toList();
          for (int i = 0; i < n; i++) {
            String marker = prefix + i;
            long effects = records(fake, toTransfers.get(i), marker);
            if (effects > 1) {
              duplicates += effects - 1;
            }
            List<String> keys = attempts.stream().filter(a -> a.task().orElse("").equals(marker) && a.method().equals("POST"))
                .map(a -> a.idempotencyKey().orElse("-")).distinct().toList();
            assertThat(keys).as("every send of %s carried the one key of its action", marker).hasSizeLessThanOrEqualTo(1);
          }
          if (!journal.openActions().isEmpty()) {
            lost += journal.openActions().size();
            System.out.println("LOST run " + run + " open: " + journal.openActions() + " attempts " + attempts.stream()
                .map(a -> a.task().orElse("") + ":" + a.method() + a.status() + a.faults()).toList());
          }
          for (Outcome o : outcomes) {
            if (o.outcome() == OutcomeCode.SUCCEEDED) {
              succeeded++;
              reconciled += o.reconciled() ? 1 : 0;
            } else if (o.outcome() == OutcomeCode.RECONCILIATION_REQUIRED) {
              stopped++;
            }
          }
          if (!crash) {
            int counted = outcomes.stream().mapToInt(Outcome::attempts).sum();
            if (counted != attempts.size()) {
              miscounted++;
            }
            for (int i = 0; i < n; i++) {
              Outcome o = outcomes.get(i);
              long effects = records(fake, toTransfers.get(i), prefix + i);
              if (o.succeeded() && effects != 1 || o.outcome() != OutcomeCode.SUCCEEDED && o.outcome() != OutcomeCode.RECONCILIATION_REQUIRED
                  && effects != 0) {
                lost++; // reported one way, happened another
                System.out.println("MISREPORTED run " + run + " " + o.outcome().code() + " effects=" + effects + " reason=" + o.reason()
                    + " attempts " + attempts.stream().map(a -> a.task().orElse("") + ":" + a.method() + a.status() + a.faults()).toList());
              }
            }
          }
        }
      }
    }
    double seconds = (System.nanoTime() - started) / 1e9;
    System.out.printf(java.util.Locale.ROOT,
        "fault campaign: seed=%d runs=%d writes=%d faults_injected=%d crashes=%d succeeded=%d (reconciled=%d) reconciliation_required=%d"
            + " duplicates=%d lost=%d miscounted_runs=%d in %.1f s%n", seed, runs, writes, faults, crashes, succeeded, reconciled, stopped,
        duplicates, lost, miscounted, seconds);
    assertThat(duplicates).as("duplicate effects at the provider").isZero();
    assertThat(lost).as("actions lost or misreported").isZero();
    assertThat(miscounted).as("runs whose outcomes' attempts differ from the provider's count").isZero();
  }

  private static FaultRule randomFault(SplittableRandom r) {
    Fault f = switch (r.nextInt(5)) {
      case 0 -> Fault.dropAfterCommit();
      case 1 -> Fault.reset();
      case 2 -> Fault.unavailable();
      case 3 -> Fault.rateLimited(429, OptionalLong.empty());
      default -> Fault.timeout();
    };
    FaultRule rule = FaultRule.of(f).nth(1 + r.nextInt(4)).times(1 + r.nextInt(3));
    return r.nextBoolean() ? rule.method("POST") : rule;
  }

  private static long records(FakeProvider fake, boolean transfer, String marker) {
    List<StoredRecord> rs = fake.records(transfer ? "transfers" : "records");
    String needle = transfer ? "\"memo\":\"" + marker + "\"" : "\"name\":\"" + marker + "\"";
    return rs.stream().filter(r -> r.json().replace(" ", "").contains(needle)).count();
  }

  /** Until the provider has seen {@code n} attempts of the run, or the run's writes all ended. */
  private static void awaitAttempts(FakeProvider fake, String prefix, int n, List<CompletableFuture<Outcome>> futures) {
    long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
    while (fake.attempts().stream().filter(a -> a.task().orElse("").startsWith(prefix)).count() < n
        && !futures.stream().allMatch(CompletableFuture::isDone) && System.nanoTime() < end) {
      java.util.concurrent.locks.LockSupport.parkNanos(50_000);
    }
  }

  private static void awaitNoPending(FakeProvider fake) {
    long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (fake.attempts().stream().anyMatch(a -> a.result() == Attempt.Result.PENDING) && System.nanoTime() < end) {
      java.util.concurrent.locks.LockSupport.parkNanos(50_000);
    }
  }
}
