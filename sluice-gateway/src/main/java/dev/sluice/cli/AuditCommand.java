package dev.sluice.cli;

import dev.sluice.core.audit.AuditKeys;
import dev.sluice.core.audit.AuditVerification;
import dev.sluice.core.audit.AuditVerifier;
import dev.sluice.core.policy.PolicyException;
import dev.sluice.core.policy.PolicyLoader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.KeyPair;
import java.security.PublicKey;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code sluice audit}: offline checks of the hash-chained audit log (DESIGN.md §3 rule 13). */
@Command(name = "audit", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
    description = "Check the audit log offline: its hash chain, order and signed checkpoints.",
    subcommands = {AuditCommand.Verify.class, AuditCommand.Keygen.class})
final class AuditCommand implements Runnable {
  static final Path DEFAULT_DIR = Path.of("sluice-data", "audit");

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }

  /** {@code sluice audit verify [PATH] [--public-key F]}. */
  @Command(name = "verify", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
      description = {"Verify the audit log without any secret: exit 0 and a one-line summary when intact;",
          "otherwise exit 1 and the first broken record with the reason (modified, reordered, missing,",
          "truncated, truncated_after_checkpoint, bad_signature, no_checkpoint)."})
  static final class Verify implements Callable<Integer> {
    @CommandLine.Spec CommandLine.Model.CommandSpec spec;

    @Parameters(paramLabel = "PATH", arity = "0..1",
        description = "The audit folder. Default: <data_dir>/audit of --config, else ./sluice-data/audit.")
    Path path;

    @Option(names = "--config", paramLabel = "FILE", description = "The policy file whose data_dir holds the log.")
    Path config;

    @Option(names = "--public-key", paramLabel = "FILE",
        description = "The Ed25519 public key (PEM) of the checkpoints: also checks signatures and that the tail was not cut.")
    Path publicKey;

    @Override
    public Integer call() throws IOException {
      Path dir = path != null ? path : config != null ? configured(config) : DEFAULT_DIR;
      if (!Files.isDirectory(dir)) {
        throw new CliErrors.UserError("no audit log at " + dir);
      }
      Optional<PublicKey> key = Optional.empty();
      if (publicKey != null) {
        try {
          key = Optional.of(AuditKeys.readPublic(publicKey));
        } catch (IOException | IllegalArgumentException e) {
          throw new CliErrors.UserError("--public-key " + publicKey + ": " + (e instanceof IOException ? "cannot be read" : e.getMessage()));
        }
      }
      AuditVerification v = AuditVerifier.verify(dir, key);
      if (v.intact()) {
        spec.commandLine().getOut().println(v.summary());
        return 0;
      }
      spec.commandLine().getErr().println(v.summary());
      return 1;
    }

    private static Path configured(Path config) {
      try {
        return PolicyLoader.load(config).dataDir().resolve("audit");
      } catch (PolicyException e) {
        throw new CliErrors.UserError(e.getMessage());
      }
    }
  }

  /** {@code sluice audit keygen --out F}: a new checkpoint signing key and its public key. */
  @Command(name = "keygen", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
      description = "Write a new Ed25519 checkpoint signing key to FILE (owner-only) and its public key to FILE.pub.")
  static final class Keygen implements Callable<Integer> {
    @CommandLine.Spec CommandLine.Model.CommandSpec spec;

    @Option(names = "--out", paramLabel = "FILE", required = true, description = "Where to write the private key (PEM).")
    Path out;

    @Override
    public Integer call() throws IOException {
      if (Files.exists(out)) {
        throw new CliErrors.UserError(out + " exists; not overwriting a key");
      }
      KeyPair keys = AuditKeys.generate();
      Path pub = out.resolveSibling(out.getFileName() + ".pub");
      try {
        Files.createFile(out, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
      } catch (UnsupportedOperationException e) {
        Files.createFile(out);
      }
      Files.writeString(out, AuditKeys.privatePem(keys.getPrivate()));
      Files.writeString(pub, AuditKeys.publicPem(keys.getPublic()));
      spec.commandLine().getOut().println("private key: " + out + "  public key: " + pub + "  key id: " + AuditKeys.keyId(keys.getPublic()));
      return 0;
    }
  }
}
