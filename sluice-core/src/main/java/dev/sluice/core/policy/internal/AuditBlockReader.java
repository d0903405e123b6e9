package dev.sluice.core.policy.internal;

import dev.sluice.core.policy.AuditPolicy;
import dev.sluice.core.policy.SecretRef;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

/** Reads the {@code audit} block: path, checkpoint key, payload key, rotation and retention. */
final class AuditBlockReader {
  static final List<String> AUDIT_KEYS = List.of(
      "path", "checkpoint_every", "signing_key_env", "signing_key_file", "encryption_key_env", "encryption_key_file", "rotate", "retention");
  static final List<String> ROTATE_KEYS = List.of("max_bytes", "max_age_hours");
  static final List<String> RETENTION_KEYS = List.of("keep_segments", "max_age_days");

  private final Problems problems;

  AuditBlockReader(Problems problems) {
    this.problems = problems;
  }

  Optional<AuditPolicy> audit(YamlValue v) {
    int before = problems.count();
    Optional<YamlMapping> mo = v.mapping(AUDIT_KEYS, PolicyReader.hints("rotate", ROTATE_KEYS, "retention", RETENTION_KEYS),
        "a mapping with path, checkpoint_every, signing_key_env or signing_key_file, encryption_key_env or encryption_key_file, rotate, retention");
    if (mo.isEmpty()) {
      return Optional.empty();
    }
    YamlMapping m = mo.get();
    AuditPolicy d = AuditPolicy.DEFAULTS;
    Optional<Path> path = m.optional("path").flatMap(AuditBlockReader::path);
    int every = m.optional("checkpoint_every").flatMap(x -> x.integer(0, 1_000_000, "0 (only at shutdown) to 1000000 records")).orElse(d.checkpointEvery());
    Optional<SecretRef> signing = m.has("signing_key_env") || m.has("signing_key_file")
        ? Fields.secretRef(m, "signing_key_env", "signing_key_file", "SLUICE_AUDIT_SIGNING_KEY") : Optional.empty();
    Optional<SecretRef> encryption = m.has("encryption_key_env") || m.has("encryption_key_file")
        ? Fields.secretRef(m, "encryption_key_env", "encryption_key_file", "SLUICE_AUDIT_ENCRYPTION_KEY") : Optional.empty();
    long maxBytes = d.rotateMaxBytes();
    Optional<Duration> rotateAge = Optional.empty();
    if (m.has("rotate")) {
      Optional<YamlMapping> r = m.optional("rotate").flatMap(x -> x.mapping(ROTATE_KEYS, null, "a mapping with max_bytes and/or max_age_hours"));
      if (r.isPresent()) {
        maxBytes = r.get().optional("max_bytes").flatMap(x -> x.integer(1024, Integer.MAX_VALUE, "1024 to 2147483647 bytes"))
            .map(Integer::longValue).orElse(maxBytes);
        rotateAge = r.get().optional("max_age_hours").flatMap(x -> x.integer(1, 100_000, "1 to 100000 hours")).map(h -> Duration.ofHours(h));
      }
    }
    OptionalInt keep = OptionalInt.empty();
    Optional<Duration> keepAge = Optional.empty();
    if (m.has("retention")) {
      Optional<YamlMapping> r = m.optional("retention").flatMap(x -> x.mapping(RETENTION_KEYS, null, "a mapping with keep_segments and/or max_age_days"));
      if (r.isPresent()) {
        Optional<Integer> k = r.get().optional("keep_segments").flatMap(x -> x.integer(1, 1_000_000, "1 to 1000000 segments"));
        keep = k.isPresent() ? OptionalInt.of(k.get()) : OptionalInt.empty();
        keepAge = r.get().optional("max_age_days").flatMap(x -> x.integer(1, 100_000, "1 to 100000 days")).map(days -> Duration.ofDays(days));
        if (r.get().keys().isEmpty()) {
          m.optional("retention").get().error("found no bound; expected keep_segments and/or max_age_days (leave retention out to keep everything)");
        }
      }
    }
    if (problems.count() > before) {
      return Optional.empty();
    }
    long bytes = maxBytes;
    Optional<Duration> ra = rotateAge;
    OptionalInt kp = keep;
    Optional<Duration> ka = keepAge;
    return Fields.build(v, () -> new AuditPolicy(path, every, signing, encryption, bytes, ra, kp, ka));
  }

  private static Optional<Path> path(YamlValue v) {
    return v.string("a directory path such as ./sluice-data/audit").flatMap(s -> {
      if (s.isBlank() || Syntax.hasControl(s)) {
        v.error("found an empty or unprintable path, expected a directory path such as ./sluice-data/audit");
        return Optional.empty();
      }
      try {
        return Optional.of(Path.of(s));
      } catch (InvalidPathException e) {
        v.error("found '" + s + "', which is not a valid path: " + e.getReason());
        return Optional.empty();
      }
    });
  }
}
