package dev.sluice.cli;

import dev.sluice.core.audit.AuditCipher;
import dev.sluice.core.audit.AuditEntry;
import dev.sluice.core.audit.AuditKeys;
import dev.sluice.core.audit.AuditPruner;
import dev.sluice.core.audit.AuditReader;
import dev.sluice.core.audit.AuditVerification;
import dev.sluice.core.audit.AuditVerifier;
import java.io.IOException;
import java.io.PrintWriter;
import java.security.PrivateKey;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
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
    description = "The audit log: verify it offline, read it (tail, show), prune old segments, make keys.",
    subcommands = {AuditCommand.Verify.class, AuditCommand.Tail.class, AuditCommand.Show.class, AuditCommand.Prune.class, AuditCommand.Keygen.class})
final class AuditCommand implements Runnable {
  static final Path DEFAULT_DIR = AuditLocation.DEFAULT_DIR;

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
      Path dir = AuditLocation.of(config).dir(path);
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
  }

  /** {@code sluice audit keygen --out F}: a new checkpoint signing key and its public key. */
  @Command(name = "keygen", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
      description = {"Write a new Ed25519 checkpoint signing key to FILE (owner-only) and its public key to FILE.pub;",
          "with --encryption, a new AES-256 payload encryption key (base64) to FILE (owner-only)."})
  static final class Keygen implements Callable<Integer> {
    @CommandLine.Spec CommandLine.Model.CommandSpec spec;

    @Option(names = "--out", paramLabel = "FILE", required = true, description = "Where to write the private key (PEM).")
    Path out;

    @Option(names = "--encryption", description = "Make a payload encryption key instead of a signing key.")
    boolean encryption;

    @Override
    public Integer call() throws IOException {
      if (Files.exists(out)) {
        throw new CliErrors.UserError(out + " exists; not overwriting a key");
      }
      if (encryption) {
        AuditCipher key = AuditCipher.generate();
        createOwnerOnly(out);
        Files.writeString(out, key.exportBase64() + "\n");
        spec.commandLine().getOut().println("encryption key: " + out + "  key id: " + key.keyId());
        return 0;
      }
      KeyPair keys = AuditKeys.generate();
      Path pub = out.resolveSibling(out.getFileName() + ".pub");
      createOwnerOnly(out);
      Files.writeString(out, AuditKeys.privatePem(keys.getPrivate()));
      Files.writeString(pub, AuditKeys.publicPem(keys.getPublic()));
      spec.commandLine().getOut().println("private key: " + out + "  public key: " + pub + "  key id: " + AuditKeys.keyId(keys.getPublic()));
      return 0;
    }
  }

  static String jsonLine(Object value) {
    return new String(dev.sluice.gateway.internal.Http.json(value), java.nio.charset.StandardCharsets.UTF_8);
  }

  static void createOwnerOnly(Path out) throws IOException {
    try {
      Files.createFile(out, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
    } catch (UnsupportedOperationException e) {
      Files.createFile(out);
    }
  }

  /** Options shared by the reading commands. */
  static final class ReadOptions {
    @Parameters(paramLabel = "PATH", arity = "0..1",
        description = "The audit folder. Default: the audit path of --config (<data_dir>/audit), else ./sluice-data/audit.")
    Path path;

    @Option(names = "--config", paramLabel = "FILE", description = "The policy file naming the log and its encryption key.")
    Path config;

    @Option(names = "--key", paramLabel = "FILE",
        description = {"An encryption key file (base64) to decrypt payloads; repeat after a key rotation.",
            "Default: the config's audit.encryption_key_*, else SLUICE_AUDIT_ENCRYPTION_KEY_FILE / SLUICE_AUDIT_ENCRYPTION_KEY."})
    List<Path> keys = new ArrayList<>();

    @Option(names = "--json", description = "One JSON object per record (NDJSON).")
    boolean json;

    AuditReader reader() {
      AuditLocation at = AuditLocation.of(config);
      return new AuditReader(at.dir(path), at.decryptionKeys(keys));
    }

    void print(PrintWriter out, AuditEntry e) {
      out.println(json ? jsonLine(e.toJson()) : e.toLine());
    }
  }

  /** {@code sluice audit tail [-n N] [--follow]}. */
  @Command(name = "tail", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
      description = {"Print the last records of the audit log, decrypting payloads when the key is given",
          "(otherwise they are listed with their envelope and marked encrypted)."})
  static final class Tail implements Callable<Integer> {
    @CommandLine.Spec CommandLine.Model.CommandSpec spec;
    @CommandLine.Mixin ReadOptions read = new ReadOptions();

    @Option(names = {"-n", "--lines"}, paramLabel = "N", defaultValue = "20", description = "How many records. Default: ${DEFAULT-VALUE}.")
    int lines;

    @Option(names = {"-f", "--follow"}, description = "Keep printing records as they are appended (polls every 500 ms; Ctrl-C stops).")
    boolean follow;

    @Override
    public Integer call() throws IOException, InterruptedException {
      if (lines < 0) {
        throw new CliErrors.UserError("-n must be 0 or more, got " + lines);
      }
      AuditReader reader = read.reader();
      PrintWriter out = spec.commandLine().getOut();
      java.util.ArrayDeque<AuditEntry> last = new java.util.ArrayDeque<>();
      AuditReader.Position at = reader.read(AuditReader.Position.START, e -> {
        last.addLast(e);
        if (last.size() > lines) {
          last.removeFirst();
        }
      });
      last.forEach(e -> read.print(out, e));
      out.flush();
      while (follow && !Thread.currentThread().isInterrupted()) {
        Thread.sleep(500); // polling a file: the only wait here, and it is the user's terminal, not a test
        at = reader.read(at, e -> read.print(out, e));
        out.flush();
      }
      return 0;
    }
  }

  /** {@code sluice audit show --task T | --action A}. */
  @Command(name = "show", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
      description = {"Print every record of one task or one action (task and action ids are stored in clear,",
          "so this works without the encryption key; the payloads then show as encrypted)."})
  static final class Show implements Callable<Integer> {
    @CommandLine.Spec CommandLine.Model.CommandSpec spec;
    @CommandLine.Mixin ReadOptions read = new ReadOptions();

    @Option(names = "--task", paramLabel = "T", description = "The task id (Sluice-Task).")
    String task;

    @Option(names = "--action", paramLabel = "A", description = "The action id (the journal's id of one logical action).")
    String action;

    @Override
    public Integer call() throws IOException {
      if ((task == null) == (action == null)) {
        throw new CliErrors.UserError("give exactly one of --task T and --action A");
      }
      PrintWriter out = spec.commandLine().getOut();
      int[] n = {0};
      read.reader().read(AuditReader.Position.START, e -> {
        boolean match = task != null ? e.text("task").filter(task::equals).isPresent() : e.text("action").filter(action::equals).isPresent();
        if (match) {
          read.print(out, e);
          n[0]++;
        }
      });
      if (n[0] == 0) {
        spec.commandLine().getErr().println("no records for " + (task != null ? "task " + task : "action " + action));
        return 1;
      }
      return 0;
    }
  }

  /** {@code sluice audit prune --before DATE | --keep N}. */
  @Command(name = "prune", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
      description = {"Remove old, closed segments and leave a signed record of what went (audit-pruned.json:",
          "range of seqs and the last hash), so 'audit verify' still checks the rest. Needs the checkpoint",
          "signing key. Refuses a log that does not verify."})
  static final class Prune implements Callable<Integer> {
    @CommandLine.Spec CommandLine.Model.CommandSpec spec;

    @Parameters(paramLabel = "PATH", arity = "0..1",
        description = "The audit folder. Default: the audit path of --config (<data_dir>/audit), else ./sluice-data/audit.")
    Path path;

    @Option(names = "--config", paramLabel = "FILE", description = "The policy file naming the log and its signing key.")
    Path config;

    @Option(names = "--before", paramLabel = "DATE", description = "Prune segments whose last record is older than DATE (2026-01-31 or an ISO instant).")
    String before;

    @Option(names = "--keep", paramLabel = "N", description = "Keep the newest N segments (the current one counts).")
    Integer keep;

    @Option(names = "--signing-key", paramLabel = "FILE",
        description = "The Ed25519 private key (PEM). Default: the config's audit.signing_key_*, else SLUICE_AUDIT_SIGNING_KEY_FILE / SLUICE_AUDIT_SIGNING_KEY.")
    Path signingKey;

    @Option(names = "--json", description = "Print the prune record as JSON.")
    boolean json;

    @Override
    public Integer call() throws IOException {
      if ((before == null) == (keep == null)) {
        throw new CliErrors.UserError("give exactly one of --before DATE and --keep N");
      }
      AuditPruner.Selection selection;
      if (keep != null) {
        if (keep < 1) {
          throw new CliErrors.UserError("--keep must be at least 1, got " + keep);
        }
        selection = new AuditPruner.Selection.Keep(keep);
      } else {
        selection = new AuditPruner.Selection.Before(instant(before));
      }
      AuditLocation at = AuditLocation.of(config);
      Path dir = at.dir(path);
      PrivateKey key = at.signingKey(signingKey).orElseThrow(() -> new CliErrors.UserError(
          "pruning needs the checkpoint signing key: --signing-key FILE, the config's audit.signing_key_*, or SLUICE_AUDIT_SIGNING_KEY_FILE"));
      Optional<AuditPruner.PruneRecord> r;
      try {
        r = AuditPruner.prune(dir, key, selection, Instant.now());
      } catch (IllegalStateException e) {
        throw new CliErrors.UserError(e.getMessage());
      }
      PrintWriter out = spec.commandLine().getOut();
      if (r.isEmpty()) {
        out.println(json ? "{\"pruned\":false}" : "nothing to prune");
        return 0;
      }
      AuditPruner.PruneRecord p = r.get();
      if (json) {
        java.util.Map<String, Object> m = new java.util.LinkedHashMap<>();
        m.put("pruned", true);
        m.put("first_seq", p.firstSeq());
        m.put("last_seq", p.lastSeq());
        m.put("last_hash", p.lastHash());
        m.put("segments", p.segments());
        m.put("key_id", p.keyId());
        out.println(jsonLine(m));
      } else {
        out.println("pruned seq " + p.firstSeq() + "-" + p.lastSeq() + " (" + p.segments() + " segment(s) in all), last hash " + p.lastHash()
            + "; signed record in " + dir.resolve(AuditPruner.RECORD));
      }
      return 0;
    }

    private static Instant instant(String text) {
      try {
        return Instant.parse(text);
      } catch (DateTimeParseException e) {
        try {
          return LocalDate.parse(text).atStartOfDay(ZoneOffset.UTC).toInstant();
        } catch (DateTimeParseException e2) {
          throw new CliErrors.UserError("--before: found '" + text + "', expected a date such as 2026-01-31 or an instant such as 2026-01-31T00:00:00Z");
        }
      }
    }
  }
}
