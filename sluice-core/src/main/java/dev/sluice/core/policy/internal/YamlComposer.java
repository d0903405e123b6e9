package dev.sluice.core.policy.internal;

import java.util.Optional;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.composer.Composer;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.MarkedYAMLException;
import org.yaml.snakeyaml.error.YAMLException;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.parser.ParserImpl;
import org.yaml.snakeyaml.reader.StreamReader;
import org.yaml.snakeyaml.resolver.Resolver;

/**
 * Turns text into a YAML node tree with positions, and nothing more: no object is ever
 * constructed from the document, so no type named in it is ever instantiated. Limits keep hostile
 * input cheap: a size cap, a nesting cap and a small alias cap (billion-laughs documents are
 * refused while composing).
 */
public final class YamlComposer {
  /** Largest document accepted, in code points. */
  public static final int MAX_CODE_POINTS = 1_000_000;
  /** Aliases to collections allowed in one document. */
  static final int MAX_COLLECTION_ALIASES = 20;
  /** Deepest nesting accepted. */
  static final int MAX_DEPTH = 40;

  private YamlComposer() {}

  /**
   * The single document of the text, or empty after recording a problem (syntax error, more than
   * one document, limits exceeded) or when the text holds no document at all.
   */
  public static Optional<Node> compose(String text, Problems problems) {
    LoaderOptions options = new LoaderOptions();
    options.setMaxAliasesForCollections(MAX_COLLECTION_ALIASES);
    options.setAllowRecursiveKeys(false);
    options.setNestingDepthLimit(MAX_DEPTH);
    options.setCodePointLimit(MAX_CODE_POINTS);
    options.setMergeOnCompose(true);
    options.setProcessComments(false);
    try {
      Composer composer = new Composer(new ParserImpl(new StreamReader(text), options), new Resolver(), options);
      return Optional.ofNullable(composer.getSingleNode());
    } catch (MarkedYAMLException e) {
      Mark mark = e.getProblemMark() != null ? e.getProblemMark() : e.getContextMark();
      StringBuilder msg = new StringBuilder("YAML syntax error: ");
      msg.append(oneLine(e.getProblem() != null ? e.getProblem() : e.getMessage()));
      if (e.getContext() != null) {
        Mark ctx = e.getContextMark();
        msg.append(" (").append(oneLine(e.getContext()));
        if (ctx != null && mark != null && ctx.getLine() != mark.getLine()) {
          msg.append(" started at line ").append(ctx.getLine() + 1);
        }
        msg.append(')');
      }
      problems.at(mark, "", msg.toString());
    } catch (YAMLException e) {
      problems.at((Mark) null, "", "cannot read the YAML: " + oneLine(e.getMessage()));
    } catch (RuntimeException | StackOverflowError e) {
      // SnakeYAML should only throw YAMLException; anything else is still a broken file, not a crash.
      problems.at((Mark) null, "", "cannot read the YAML: " + e.getClass().getSimpleName());
    }
    return Optional.empty();
  }

  private static String oneLine(String s) {
    if (s == null) {
      return "unknown error";
    }
    String t = s.strip().replaceAll("\\s*\\n\\s*", " ");
    return t.length() > 200 ? t.substring(0, 200) + "..." : t;
  }
}
