package dev.sluice.fake.internal;

import dev.sluice.fake.Fault;
import dev.sluice.fake.FaultRule;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The active fault rules with their match counters. Configured rules come back on {@link #reset()};
 * rules added at run time do not. Thread-safe; callers that need arrival order call {@link #strike}
 * under the attempt log's lock.
 */
public final class FaultBook {

  private final List<FaultRule> configured;
  private final List<Armed> active = new CopyOnWriteArrayList<>();

  public FaultBook(List<FaultRule> configured) {
    this.configured = List.copyOf(configured);
    reset();
  }

  /** A rule and how many requests it matched so far. */
  public record Armed(FaultRule rule, AtomicLong matched) {}

  /** Counts the request against every matching rule and returns the faults that strike it, in rule order. */
  public List<Fault> strike(String method, String path, String family, String scope) {
    List<Fault> out = new ArrayList<>(0);
    for (Armed a : active) {
      if (a.rule().matches(method, path, family, scope) && a.rule().strikes(a.matched().incrementAndGet())) {
        out.add(a.rule().fault());
      }
    }
    return out;
  }

  public void add(FaultRule rule) {
    active.add(new Armed(rule, new AtomicLong()));
  }

  /** Removes every rule, configured ones included (until the next {@link #reset()}). */
  public void clear() {
    active.clear();
  }

  /** Back to the configured rules with fresh counters. */
  public void reset() {
    List<Armed> fresh = new ArrayList<>();
    for (FaultRule r : configured) {
      fresh.add(new Armed(r, new AtomicLong()));
    }
    active.clear();
    active.addAll(fresh);
  }

  public List<Armed> active() {
    return List.copyOf(active);
  }
}
