package dev.sluice.core.journal;

import dev.sluice.core.escalation.DecisionOption;
import dev.sluice.core.escalation.Trigger;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * An escalation to record ({@link Journal#recordEscalation}).
 *
 * @param actionId the action it is about
 * @param trigger why
 * @param detail the detail in words (no secrets; at most 2000 characters are kept)
 * @param options the options offered, at least one
 * @param createdAt when
 */
public record NewEscalation(ActionId actionId, Trigger trigger, String detail, List<DecisionOption> options, Instant createdAt) {
  public NewEscalation {
    Objects.requireNonNull(actionId, "actionId");
    Objects.requireNonNull(trigger, "trigger");
    Objects.requireNonNull(detail, "detail");
    options = List.copyOf(options);
    Objects.requireNonNull(createdAt, "createdAt");
    if (options.isEmpty()) {
      throw new IllegalArgumentException("an escalation offers at least one option");
    }
    if (detail.length() > 2000) {
      detail = detail.substring(0, 2000) + "…";
    }
  }
}
