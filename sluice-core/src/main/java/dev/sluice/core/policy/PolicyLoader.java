package dev.sluice.core.policy;

import dev.sluice.core.policy.internal.PolicyReader;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;

/**
 * Loads and validates {@code sluice.yaml}.
 *
 * <p>Contract: either a complete, valid {@link Policy} comes back, or a {@link PolicyException}
 * listing <em>every</em> problem found, each with file, path ({@code
 * providers.billing-api.routes[2].class}), line, column, what was found and what was expected.
 * Nothing else is thrown, whatever the input. Unknown keys are errors (with a did-you-mean when a
 * known key is close), so a typo never silently falls back to a default.
 *
 * <p>Safety: the YAML is only composed into a node tree (no type named in the document is ever
 * instantiated); documents over {@value #MAX_BYTES} bytes, deeper than 40 levels or with more than
 * 20 collection aliases are refused. Anchors, aliases and merge keys ({@code <<: *defaults}) work
 * within those limits. The loader does not read secret values, only checks the shape of their
 * references, and no message contains a value that might be a secret.
 *
 * <p>Thread-safe: holds no state.
 */
public final class PolicyLoader {
  /** Largest policy file accepted. */
  public static final int MAX_BYTES = 1 << 20;

  private PolicyLoader() {}

  /**
   * Reads and validates a policy file; problems name the file as {@code file.toString()}.
   *
   * @throws PolicyException when the file is missing, unreadable, not UTF-8, too large, or invalid
   */
  public static Policy load(Path file) {
    String name = file.toString();
    byte[] bytes;
    try {
      if (Files.isDirectory(file)) {
        throw fail(name, "is a directory; expected a YAML file such as sluice.yaml");
      }
      if (Files.exists(file) && Files.size(file) > MAX_BYTES) {
        throw fail(name, "is " + Files.size(file) + " bytes; a policy file may be at most " + MAX_BYTES + " bytes");
      }
      bytes = Files.readAllBytes(file);
    } catch (NoSuchFileException e) {
      throw fail(name, "no such file");
    } catch (AccessDeniedException e) {
      throw fail(name, "permission denied");
    } catch (IOException e) {
      throw fail(name, "cannot read the file: " + e.getClass().getSimpleName()
          + (e.getMessage() == null ? "" : " (" + e.getMessage() + ")"));
    }
    if (bytes.length > MAX_BYTES) {
      throw fail(name, "is larger than " + MAX_BYTES + " bytes; a policy file may be at most that");
    }
    String text;
    try {
      text = StandardCharsets.UTF_8.newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(bytes))
          .toString();
    } catch (CharacterCodingException e) {
      throw fail(name, "is not UTF-8 text; save it as UTF-8");
    }
    return parse(text, name);
  }

  /**
   * Validates policy text. A leading byte-order mark is ignored.
   *
   * @param yaml the document
   * @param sourceName how problems name the source (usually the file name)
   * @throws PolicyException listing every problem
   */
  public static Policy parse(String yaml, String sourceName) {
    String name = sourceName == null ? "<policy>" : sourceName;
    if (yaml == null) {
      throw fail(name, "no text given");
    }
    String text = yaml.startsWith("\uFEFF") ? yaml.substring(1) : yaml;
    try {
      return PolicyReader.read(text, name);
    } catch (PolicyException e) {
      throw e;
    } catch (RuntimeException | StackOverflowError e) {
      // A gap in the validator must surface as a problem with the file, never as a crash.
      throw fail(name, "cannot be read (" + e.getClass().getSimpleName() + "); please report this with the file");
    }
  }

  private static PolicyException fail(String name, String message) {
    return new PolicyException(List.of(new Problem(name, "", 0, 0, message)));
  }
}
