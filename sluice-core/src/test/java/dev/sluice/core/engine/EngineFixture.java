package dev.sluice.core.engine;

import dev.sluice.core.scope.InMemoryScopeRegistry;
import dev.sluice.core.scope.ScopeId;
import java.time.Duration;
import java.time.Instant;
import java.util.SplittableRandom;

/** An engine on virtual time with a recording transport, for behaviour tests. */
final class EngineFixture {
  static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
  static final ScopeId SCOPE = new ScopeId("billing-api", "account:ops-team");

  final VirtualScheduler clock = new VirtualScheduler(T0);
  final RecordingTransport transport;
  final InMemoryScopeRegistry registry = new InMemoryScopeRegistry();
  final Engine engine;

  EngineFixture(Duration latency, RecordingTransport.Script script, EngineSettings settings, ScopeSettings... scopes) {
    this.transport = new RecordingTransport(clock, latency, script);
    this.engine = new Engine(settings, clock, transport, registry);
    for (ScopeSettings s : scopes) {
      engine.registerScope(s);
    }
  }

  EngineFixture(Duration latency, RecordingTransport.Script script, ScopeSettings... scopes) {
    this(latency, script, EngineSettings.defaults().withRandom(new SplittableRandom(42)), scopes);
  }

  static ActionRequest read(String task, Priority p) {
    return ActionRequest.read(task, p, SCOPE, "/v1/invoices/{id}", "/v1/invoices/42");
  }

  static ActionRequest read(String task) {
    return read(task, Priority.INTERACTIVE);
  }

  double secondsSinceStart(Instant t) {
    return Duration.between(T0, t).toNanos() / 1e9;
  }
}
