package dev.sluice.core.policy;

import java.util.List;
import java.util.stream.Collectors;

/**
 * A policy file that cannot be used, with every problem found in it (not only the first).
 *
 * <p>Unchecked so that callers that cannot recover (a gateway at start-up) need not declare it;
 * {@link #problems()} is never empty, and {@link #getMessage()} renders every problem, one per
 * line, as {@code FILE:LINE:COL: path: message}. No message ever contains a secret value.
 */
public final class PolicyException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final List<Problem> problems;

  /** @param problems at least one problem, in document order */
  public PolicyException(List<Problem> problems) {
    super(render(problems));
    if (problems.isEmpty()) {
      throw new IllegalArgumentException("a PolicyException needs at least one problem");
    }
    this.problems = List.copyOf(problems);
  }

  /** Every problem found, in document order; never empty. */
  public List<Problem> problems() {
    return problems;
  }

  private static String render(List<Problem> problems) {
    return problems.stream().map(Problem::render).collect(Collectors.joining("\n"));
  }
}
