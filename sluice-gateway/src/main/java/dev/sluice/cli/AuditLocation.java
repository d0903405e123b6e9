package dev.sluice.cli;

import dev.sluice.core.Sluice;
import dev.sluice.core.audit.AuditCipher;
import dev.sluice.core.audit.AuditKeys;
import dev.sluice.core.policy.AuditPolicy;
import dev.sluice.core.policy.Policy;
import dev.sluice.core.policy.PolicyException;
import dev.sluice.core.policy.PolicyLoader;
import dev.sluice.core.policy.SecretRef;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.PrivateKey;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * Where the {@code sluice audit} commands find the log and its keys: PATH, else the {@code audit}
 * block (or {@code <data_dir>/audit}) of {@code --config}, else {@code ./sluice-data/audit}; keys
 * from the options, else the config's references, else the environment variables the server uses.
 * Every failure is a {@link CliErrors.UserError} naming the reference, never a key.
 */
final class AuditLocation {
  static final Path DEFAULT_DIR = Path.of("sluice-data", "audit");

  private final Optional<Policy> policy;
  private final Function<String, Optional<String>> env;

  private AuditLocation(Optional<Policy> policy, Function<String, Optional<String>> env) {
    this.policy = policy;
    this.env = env;
  }

  static AuditLocation of(Path config) {
    Function<String, Optional<String>> env = name -> Optional.ofNullable(System.getenv(name)).filter(v -> !v.isBlank());
    if (config == null) {
      return new AuditLocation(Optional.empty(), env);
    }
    try {
      return new AuditLocation(Optional.of(PolicyLoader.load(config)), env);
    } catch (PolicyException e) {
      throw new CliErrors.UserError(e.getMessage());
    }
  }

  /** The log's folder; it must exist. */
  Path dir(Path given) {
    Path dir = given != null ? given : policy.map(p -> p.audit().orElse(AuditPolicy.DEFAULTS).dir(p.dataDir())).orElse(DEFAULT_DIR);
    if (!Files.isDirectory(dir)) {
      throw new CliErrors.UserError("no audit log at " + dir);
    }
    return dir;
  }

  /** The decryption keys: the files given, else the config's reference, else the environment; may be empty. */
  List<AuditCipher> decryptionKeys(List<Path> files) {
    List<AuditCipher> keys = new ArrayList<>();
    if (files != null && !files.isEmpty()) {
      for (Path f : files) {
        try {
          keys.add(AuditCipher.read(f));
        } catch (IOException e) {
          throw new CliErrors.UserError("--key " + f + ": cannot be read");
        } catch (IllegalArgumentException e) {
          throw new CliErrors.UserError("--key " + f + ": " + e.getMessage());
        }
      }
      return keys;
    }
    Optional<SecretRef> ref = policy.flatMap(Policy::audit).flatMap(AuditPolicy::encryptionKey);
    text(ref, Sluice.Builder.AUDIT_ENCRYPTION_KEY_FILE_ENV, Sluice.Builder.AUDIT_ENCRYPTION_KEY_ENV).ifPresent(t -> {
      try {
        keys.add(AuditCipher.parse(t.text()));
      } catch (IllegalArgumentException e) {
        throw new CliErrors.UserError("the audit encryption key from " + t.from() + ": " + e.getMessage());
      }
    });
    return keys;
  }

  /** The checkpoint signing key: the file given, else the config's reference, else the environment. */
  Optional<PrivateKey> signingKey(Path file) {
    Optional<Text> t;
    if (file != null) {
      t = Optional.of(new Text(readFile(file, "--signing-key " + file), "--signing-key " + file));
    } else {
      t = text(policy.flatMap(Policy::audit).flatMap(AuditPolicy::signingKey), Sluice.Builder.AUDIT_KEY_FILE_ENV, Sluice.Builder.AUDIT_KEY_ENV);
    }
    return t.map(x -> {
      try {
        return AuditKeys.parsePrivate(x.text());
      } catch (IllegalArgumentException e) {
        throw new CliErrors.UserError("the audit signing key from " + x.from() + ": " + e.getMessage());
      }
    });
  }

  private record Text(String text, String from) {}

  private Optional<Text> text(Optional<SecretRef> ref, String fileEnv, String valueEnv) {
    if (ref.isPresent()) {
      return Optional.of(switch (ref.get()) {
        case SecretRef.Env e -> new Text(env.apply(e.variable())
            .orElseThrow(() -> new CliErrors.UserError("environment variable " + e.variable() + " (from the config) is not set")), e.describe());
        case SecretRef.File f -> new Text(readFile(f.path(), f.describe()), f.describe());
      });
    }
    Optional<String> file = env.apply(fileEnv);
    if (file.isPresent()) {
      Path p = Path.of(file.get().strip());
      return Optional.of(new Text(readFile(p, fileEnv + "=" + p), fileEnv));
    }
    return env.apply(valueEnv).map(v -> new Text(v, valueEnv));
  }

  private static String readFile(Path p, String what) {
    try {
      return Files.readString(p, StandardCharsets.US_ASCII);
    } catch (IOException | RuntimeException e) {
      throw new CliErrors.UserError(what + ": cannot be read");
    }
  }
}
