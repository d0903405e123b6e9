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
import java.time.Clock;
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

  public GatewayMetrics(Policy policy) {
    this.policy = policy;
  }

  /** Wraps the engine's transport so that every attempt is counted when its result is known. */
  public Transport count(Transport inner) {
    return request -> {
      CompletableFuture<AttemptResult> f = inner.send(request);
      Provider p = policy.providers().get(request.scope().provider());
      String requestClass = p == null ? "unknown" : classOf(p, request.method(), request.target());
      f.whenComplete((r, e) -> {
        String status = r instanceof AttemptResult.Response resp ? String.valueOf(resp.status())
            : r instanceof AttemptResult.Failure fail ? fail.kind().code() : "error";
        Counter.builder("sluice.attempts").description("attempts that left for a provider")
            .tag("provider", request.scope().provider()).tag("scope", request.scope().scope())
            .tag("class", requestClass).tag("status", status).register(registry).increment();
      });
      return f;
    };
  }

  private String classOf(Provider p, String method, String target) {
    try {
      return p.classify(method, target).requestClass();
    } catch (IllegalArgumentException e) {
      return "unknown";
    }
  }

  /** Counts one terminal outcome. */
  public void outcome(String provider, Outcome o) {
    Counter.builder("sluice.outcomes").tag("provider", provider).tag("outcome", o.outcome().code()).register(registry).increment();
    DistributionSummary.builder("sluice.wait.seconds").description("time actions waited in Sluice (queues and retry delays)")
        .baseUnit("seconds").tag("provider", provider).register(registry).record(o.waitedSeconds());
    if (o.outcome() == OutcomeCode.BUDGET_EXHAUSTED) {
      Counter.builder("sluice.budget.exhaustions").tag("provider", provider).register(registry).increment();
    }
    if (o.outcome() == OutcomeCode.CIRCUIT_OPEN) {
      Counter.builder("sluice.circuit.open").description("actions stopped by an open circuit").tag("provider", provider)
          .register(registry).increment();
    }
    if (o.coalesced()) {
      Counter.builder("sluice.coalesced.reads").tag("provider", provider).register(registry).increment();
    }
  }

  /** A gateway-level refusal (auth, path, caps): nothing was sent. */
  public void refusal(String code) {
    Counter.builder("sluice.gateway.refusals").tag("reason", code).register(registry).increment();
  }

  /** Registers queue depth, delayed count and in-flight gauges per provider scope. */
  public void watch(Sluice sluice, Clock clock) {
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
