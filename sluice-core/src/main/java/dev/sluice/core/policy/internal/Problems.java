package dev.sluice.core.policy.internal;

import dev.sluice.core.policy.Problem;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.nodes.Node;

/**
 * Collects problems while the whole document is checked, so that all of them are reported at once.
 * Capped, so that a hostile file cannot make the report itself huge.
 */
public final class Problems {
  /** Problems kept; beyond this only a count is reported. */
  public static final int MAX = 100;

  private final String file;
  private final List<Problem> list = new ArrayList<>();
  private int dropped;

  public Problems(String file) {
    this.file = file;
  }

  public String file() {
    return file;
  }

  /** Records a problem at the start of a node. */
  public void at(Node node, String path, String message) {
    at(node == null ? null : node.getStartMark(), path, message);
  }

  /** Records a problem at a mark (null: no position). */
  public void at(Mark mark, String path, String message) {
    if (list.size() >= MAX) {
      dropped++;
      return;
    }
    int line = mark == null ? 0 : mark.getLine() + 1;
    int column = mark == null ? 0 : mark.getColumn() + 1;
    list.add(new Problem(file, path, line, column, message));
  }

  /** How many problems were recorded so far (including dropped ones). */
  public int count() {
    return list.size() + dropped;
  }

  public boolean isEmpty() {
    return count() == 0;
  }

  /** The problems in document order, with a last line counting the dropped ones, if any. */
  public List<Problem> sorted() {
    List<Problem> out = new ArrayList<>(list);
    out.sort(Comparator.comparingInt(Problem::line).thenComparingInt(Problem::column));
    if (dropped > 0) {
      out.add(new Problem(file, "", 0, 0, "... and " + dropped + " more problems (only the first " + MAX + " are listed)"));
    }
    return out;
  }
}
