package dev.sluice.core.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class VirtualSchedulerTest {
  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

  @Test
  void advanceRunsDueTasksInDueOrderThenSchedulingOrderWithNowAtEachDueTime() {
    VirtualScheduler s = new VirtualScheduler(T0);
    List<String> ran = new ArrayList<>();
    s.schedule(T0.plusSeconds(2), () -> ran.add("b@" + s.now()));
    s.schedule(T0.plusSeconds(1), () -> ran.add("a@" + s.now()));
    s.schedule(T0.plusSeconds(2), () -> ran.add("c@" + s.now()));
    Cancellable d = s.schedule(T0.plusSeconds(1), () -> ran.add("cancelled"));
    s.schedule(T0.plusSeconds(5), () -> ran.add("late"));
    d.cancel();
    s.advance(Duration.ofSeconds(3));
    assertThat(ran).containsExactly("a@" + T0.plusSeconds(1), "b@" + T0.plusSeconds(2), "c@" + T0.plusSeconds(2));
    assertThat(s.now()).isEqualTo(T0.plusSeconds(3));
    assertThat(s.pending()).isEqualTo(1);
  }

  @Test
  void tasksScheduledWhileAdvancingRunIfDueBeforeTheTarget() {
    VirtualScheduler s = new VirtualScheduler(T0);
    List<Instant> ran = new ArrayList<>();
    s.schedule(T0.plusSeconds(1), () -> s.schedule(s.now().plusSeconds(1), () -> ran.add(s.now())));
    s.advance(Duration.ofSeconds(5));
    assertThat(ran).containsExactly(T0.plusSeconds(2));
  }
}
