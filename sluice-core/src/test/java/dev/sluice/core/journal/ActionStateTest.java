package dev.sluice.core.journal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.EnumSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Properties of the state machine's table itself, independent of any store. */
class ActionStateTest {

  static Set<ActionState> reachable(ActionState from, Set<ActionState> avoiding) {
    Set<ActionState> seen = EnumSet.of(from);
    Deque<ActionState> todo = new ArrayDeque<>(Set.of(from));
    while (!todo.isEmpty()) {
      for (ActionState next : todo.pop().successors()) {
        if (!avoiding.contains(next) && seen.add(next)) {
          todo.push(next);
        }
      }
    }
    return seen;
  }

  @Test
  void afterAnUnknownOutcomeNothingIsSentAgainWithoutALookupOrAPersonsDecision() {
    Set<ActionState> withoutLookupOrPerson = reachable(ActionState.OUTCOME_UNKNOWN, EnumSet.of(ActionState.RECONCILING, ActionState.ESCALATED));

    assertThat(withoutLookupOrPerson).doesNotContain(ActionState.IN_FLIGHT, ActionState.QUEUED, ActionState.DELAYED);
  }

  @Test
  void everyStateCanStillEnd() {
    for (ActionState s : ActionState.values()) {
      assertThat(reachable(s, EnumSet.noneOf(ActionState.class))).as("from %s", s).containsAnyOf(ActionState.SUCCEEDED, ActionState.FAILED,
          ActionState.CANCELLED);
    }
  }

  @Test
  void everyStateIsReachableFromANewAction() {
    Set<ActionState> fromNew = reachable(ActionState.QUEUED, EnumSet.noneOf(ActionState.class));
    fromNew.addAll(reachable(ActionState.DELAYED, EnumSet.noneOf(ActionState.class)));
    fromNew.addAll(reachable(ActionState.AWAITING_APPROVAL, EnumSet.noneOf(ActionState.class))); // per-call approval starts there

    assertThat(fromNew).containsExactlyInAnyOrder(ActionState.values());
  }

  @Test
  void anActionAwaitingApprovalIsNeverSentWithoutGoingThroughTheQueueAndIsNotResumedByARestart() {
    assertThat(ActionState.AWAITING_APPROVAL.successors()).containsExactlyInAnyOrder(ActionState.AWAITING_APPROVAL, ActionState.QUEUED,
        ActionState.CANCELLED);
    assertThat(ActionState.AWAITING_APPROVAL.open()).isFalse();
    assertThat(ActionState.AWAITING_APPROVAL.terminal()).isFalse();
    for (ActionState s : ActionState.values()) {
      if (s != ActionState.AWAITING_APPROVAL) {
        assertThat(s.canBecome(ActionState.AWAITING_APPROVAL)).as("%s", s).isFalse();
      }
    }
  }

  @Test
  void terminalStatesHaveNoSuccessorsAndTheRestMayStayPut() {
    for (ActionState s : ActionState.values()) {
      if (s.terminal()) {
        assertThat(s.successors()).as("%s", s).isEmpty();
      } else {
        assertThat(s.canBecome(s)).as("%s", s).isTrue();
      }
    }
  }

  @Test
  void theOpenStatesAreTheOnesARestartResumes() {
    assertThat(ActionState.openStates()).containsExactlyInAnyOrder(ActionState.QUEUED, ActionState.DELAYED, ActionState.IN_FLIGHT,
        ActionState.OUTCOME_UNKNOWN, ActionState.RECONCILING);
    assertThat(ActionState.RECONCILIATION_REQUIRED.open()).isFalse();
    assertThat(ActionState.ESCALATED.open()).isFalse();
    assertThat(ActionState.ESCALATED.terminal()).as("a person's decision can still move it").isFalse();
  }

  @Test
  void codesAreSnakeCaseAndParseBack() {
    for (ActionState s : ActionState.values()) {
      assertThat(ActionState.fromCode(s.code())).contains(s);
    }
    assertThat(ActionState.OUTCOME_UNKNOWN.code()).isEqualTo("outcome_unknown");
    assertThat(ActionState.fromCode("OUTCOME_UNKNOWN")).isEmpty();
  }
}
