package dev.sluice.core.policy;

import dev.sluice.core.policy.internal.Syntax;
import java.nio.file.Path;
import java.util.Objects;

/**
 * Where a secret lives: an environment variable or a file. Only the reference is configured and
 * validated; the gateway reads the value at start-up, and the value never appears in the policy,
 * its messages or its {@code toString()}.
 */
public sealed interface SecretRef {
  /** A human-readable reference that is safe to print: {@code env BILLING_API_TOKEN}. */
  String describe();

  /** The secret is the value of an environment variable ({@code secret_env} / {@code token_env}). */
  record Env(String variable) implements SecretRef {
    public Env {
      Objects.requireNonNull(variable, "variable");
      if (!Syntax.ENV_NAME.matcher(variable).matches()) {
        // The value is not echoed: a pasted secret is the likeliest reason it is not a name.
        throw new IllegalArgumentException("an environment variable name must match " + Syntax.ENV_NAME.pattern());
      }
    }

    @Override
    public String describe() {
      return "env " + variable;
    }
  }

  /**
   * The secret is the content of a file, trailing line breaks removed ({@code secret_file} /
   * {@code token_file}). A relative path is resolved by the reader against its working directory.
   */
  record File(Path path) implements SecretRef {
    public File {
      Objects.requireNonNull(path, "path");
      if (path.toString().isEmpty()) {
        throw new IllegalArgumentException("a secret file path must not be empty");
      }
    }

    @Override
    public String describe() {
      return "file " + path;
    }
  }
}
