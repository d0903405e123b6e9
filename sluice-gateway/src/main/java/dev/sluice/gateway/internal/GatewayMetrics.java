package dev.sluice.gateway.internal;

import dev.sluice.core.Sluice;
import dev.sluice.core.classify.AttemptResult;
import dev.sluice.core.engine.Outcome;
import dev.sluice.core.engine.OutcomeCode;
import dev.sluice.core.engine.QueuedRequest;
import dev.sluice.core.engine.Transport;
import dev.sluice.core.policy.Policy;
import dev.sluice.core.policy.Provider;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import dev.sluice.core.journal.ActionId;
import dev.sluice.core.journal.AttemptKind;
import java.time.Clock;
import java.util.Optional;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;

/**
 * The gateway's Prometheus metrics. Attempts are counted where they leave (a transport wrapper),
 * by provider, scope, request class and status, so 429 and 503 are separate series; a transport
 * failure is counted under its kind ({@code reset_after_send}, ...). Labels never carry a path,
 * a task id or anything an agent typed beyond a configured provider id.
 */
public final class GatewayMetrics {
  private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
  private final Policy policy;
  // The per-attempt and per-outcome meters, looked up once per series: building a meter's id on every call was a
  // visible share of what the gateway allocated per request. Bounded by configured providers, scopes, classes and
  // the statuses and outcome codes they produce.
  private final java.util.concurrent.ConcurrentMap<AttemptSeries, Counter> attempts = new java.util.concurrent.ConcurrentHashMap<>();
  private final java.util.concurrent.ConcurrentMap<java.util.List<String>, Counter> outcomes = new java.util.concurrent.ConcurrentHashMap<>();
  private final java.util.concurrent.ConcurrentMap<String, DistributionSummary> waits = new java.util.concurrent.ConcurrentHashMap<>();

  private record AttemptSeries(String provider, String scope, String requestClass, String status) {}

  public GatewayMetrics(Policy policy) {
    this.policy = policy;
  }

  /**
   * Wraps the engine's transport so that every attempt is counted when its result is known —
   * before the engine hears of it, so that a scrape after the agent's answer includes the attempt.
   * Cancelling the returned future (the engine aborting an attempt) cancels the transport's.
   */
  public Transport count(Transport inner) {
    return request -> {
      CompletableFuture<AttemptResult> f = inner.send(request);
      String requestClass = request.requestClass();
      if (requestClass.equals("unknown")) { // an engine caller that did not name it: match the route
        Provider p = policy.providers().get(request.scope().provider());
        requestClass = p == null ? "unknown" : classOf(p, request.method(), request.target());
      }
      String named = requestClass;
      CompletableFuture<AttemptResult> out = new CompletableFuture<>();
      f.whenComplete((r, e) -> {
        String status = r instanceof AttemptResult.Response resp ? String.valueOf(resp.status())
            : r instanceof AttemptResult.Failure fail ? fail.kind().code() : "error";
        attempts.computeIfAbsent(new AttemptSeries(request.scope().provider(), request.scope().scope(), named, status),
            k -> Counter.builder("sluice.attempts").description("attempts that left for a provider").tag("provider", k.provider())
                .tag("scope", k.scope()).tag("class", k.requestClass()).tag("status", k.status()).register(registry)).increment();
        if (e != null) {
          out.completeExceptionally(e);
        } else {
          out.complete(r);
        }
      });
      out.whenComplete((r, e) -> {
        if (out.isCancelled()) {
          f.cancel(true);
        }
      });
      return out;
    };
  }

  private String classOf(Provider p, String method, String target) {
    try {
      return p.classify(method, target).requestClass();
    } catch (IllegalArgumentException e) {
      return "unknown";
    }
  }

  /**
   * Counts one terminal outcome: by outcome code, its wait, and what it says about budgets,
   * circuits, coalescing and reconciliation. A reconciliation's result is {@code found} (the
   * look-up found the provider's record), {@code absent_resent} (the look-up proved it absent and
   * the write was sent again with its key, then succeeded; read from the journal's attempts) or
   * {@code unresolved} (reconciliation required, escalated or the outcome stayed unknown).
   */
  public void outcome(String provider, Outcome o, Sluice sluice, Optional<ActionId> journalId, boolean write) {
    outcomes.computeIfAbsent(java.util.List.of(provider, o.outcome().code()),
        k -> Counter.builder("sluice.outcomes").tag("provider", k.get(0)).tag("outcome", k.get(1)).register(registry)).increment();
    waits.computeIfAbsent(provider, k -> DistributionSummary.builder("sluice.wait.seconds").description("time actions waited in Sluice (queues and retry delays)")
        .baseUnit("seconds").tag("provider", k).register(registry)).record(o.waitedSeconds());
    if (o.outcome() == OutcomeCode.BUDGET_EXHAUSTED) {
      Counter.builder("sluice.budget.exhaustions").description("actions stopped because their class's retry budget ran out")
          .tag("provider", provider).register(registry).increment();
    }
    if (o.outcome() == OutcomeCode.CIRCUIT_OPEN) {
      Counter.builder("sluice.circuit.open").description("actions stopped by an open circuit").tag("provider", provider)
          .register(registry).increment();
    }
    if (o.coalesced()) {
      Counter.builder("sluice.coalesced.reads").description("reads that shared another caller's attempt").tag("provider", provider)
          .register(registry).increment();
    }
    reconciliation(o, sluice, journalId, write).ifPresent(result -> Counter.builder("sluice.reconciliations")
        .description("writes whose outcome was unknown, by what reconciliation found").tag("provider", provider).tag("result", result)
        .register(registry).increment());
  }

  private static Optional<String> reconciliation(Outcome o, Sluice sluice, Optional<ActionId> journalId, boolean write) {
    if (o.reconciled()) {
      return Optional.of("found");
    }
    switch (o.outcome()) {
      case RECONCILIATION_REQUIRED, ESCALATED, OUTCOME_UNKNOWN -> {
        return write ? Optional.of("unresolved") : Optional.empty();
      }
      case SUCCEEDED -> {
        // Only a write that needed more than one attempt can have been looked up and resent.
        if (write && o.attempts() > 1 && journalId.isPresent() && sluice != null
            && sluice.attempts(journalId.get()).stream().anyMatch(a -> a.kind() == AttemptKind.LOOKUP)) {
          return Optional.of("absent_resent");
        }
        return Optional.empty();
      }
      default -> {
        return Optional.empty();
      }
    }
  }

  /**
   * Counts one escalation (a person was handed a decision: an uncertain write, an approval, an
   * exhausted budget or quota…): {@code sluice_escalations_total} by provider, fed by {@link
   * Sluice#onEscalation} once {@link #watch} runs.
   */
  public void escalated(String provider) {
    Counter.builder("sluice.escalations").description("uncertain writes handed to a person").tag("provider", provider)
        .register(registry).increment();
  }

  /** A gateway-level refusal (auth, path, caps): nothing was sent. */
  public void refusal(String code) {
    Counter.builder("sluice.gateway.refusals").tag("reason", code).register(registry).increment();
  }

  /** Registers queue depth, delayed count and in-flight gauges per provider scope. */
  public void watch(Sluice sluice, Clock clock) {
    sluice.onEscalation(e -> escalated(e.dossier().provider()));
    for (Provider p : policy.providers().values()) {
      String id = p.id();
      Gauge.builder("sluice.queue.depth", () -> sluice.queue(id).size()).tag("provider", id).tag("scope", p.scope()).register(registry);
      Gauge.builder("sluice.queue.delayed", () -> delayed(sluice, id, clock.instant())).tag("provider", id).tag("scope", p.scope())
          .register(registry);
      Gauge.builder("sluice.in.flight", () -> sluice.inFlight(id)).tag("provider", id).tag("scope", p.scope()).register(registry);
    }
  }

  private static long delayed(Sluice sluice, String provider, Instant now) {
    return sluice.queue(provider).stream().map(QueuedRequest::dueAt).filter(d -> d.isAfter(now)).count();
  }

  /** The Prometheus text exposition. */
  public String scrape() {
    return registry.scrape();
  }
}
