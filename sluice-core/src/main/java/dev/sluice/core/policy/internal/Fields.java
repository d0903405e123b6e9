package dev.sluice.core.policy.internal;

import dev.sluice.core.policy.Route;
import dev.sluice.core.policy.SecretRef;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;

/** Readers for small values that several parts of the policy share: secrets, header names, pointers, methods. */
final class Fields {
  private Fields() {}

  /** Exactly one of an env-variable key and a file key. */
  static Optional<SecretRef> secretRef(YamlMapping m, String envKey, String fileKey, String example) {
    boolean hasEnv = m.has(envKey);
    boolean hasFile = m.has(fileKey);
    if (hasEnv && hasFile) {
      m.self().problems().at(m.keyNode(fileKey), YamlValue.child(m.self().path(), fileKey),
          "both " + envKey + " and " + fileKey + " are set; expected exactly one of them");
      return Optional.empty();
    }
    if (!hasEnv && !hasFile) {
      if (m.misspelt(envKey) || m.misspelt(fileKey)) {
        return Optional.empty(); // the misspelt key was reported already
      }
      m.self().problems().at(m.self().node(), YamlValue.child(m.self().path(), envKey),
          "missing " + envKey + " or " + fileKey + "; expected exactly one (e.g. " + envKey + ": " + example + ")");
      return Optional.empty();
    }
    if (hasEnv) {
      return m.required(envKey, "an environment variable name such as " + example).flatMap(v ->
          v.secretString("an environment variable name such as " + example).flatMap(s -> {
            if (!Syntax.ENV_NAME.matcher(s).matches()) {
              v.error("found a value that is not an environment variable name (not shown: it may be the secret itself); "
                  + "expected a name such as " + example + " (letters, digits and _, not starting with a digit)");
              return Optional.empty();
            }
            return Optional.<SecretRef>of(new SecretRef.Env(s));
          }));
    }
    return m.required(fileKey, "a path to a file holding the secret").flatMap(v ->
        v.string("a path to a file holding the secret").flatMap(s -> {
          if (s.isBlank() || Syntax.hasControl(s)) {
            v.error("found an empty or unprintable path, expected a path to a file holding the secret");
            return Optional.empty();
          }
          try {
            return Optional.<SecretRef>of(new SecretRef.File(Path.of(s)));
          } catch (InvalidPathException e) {
            v.error("found '" + s + "', which is not a valid path: " + e.getReason());
            return Optional.empty();
          }
        }));
  }

  static Optional<String> headerName(YamlValue v, String what) {
    return v.string("a header field name such as Idempotency-Key").flatMap(s -> {
      if (!Syntax.isToken(s)) {
        v.error("found '" + s + "', which is not a header field name; expected letters, digits and - (e.g. Idempotency-Key)");
        return Optional.empty();
      }
      if (Syntax.isReservedHeader(s)) {
        v.error("'" + s + "' frames the HTTP message and cannot be used as " + what);
        return Optional.empty();
      }
      return Optional.of(s);
    });
  }

  static Optional<String> jsonPointer(YamlValue v) {
    return v.string("an RFC 6901 JSON pointer such as /error/code").flatMap(s -> {
      if (!Syntax.isJsonPointer(s)) {
        v.error("found '" + s + "', which is not an RFC 6901 JSON pointer; expected '/'-separated names such as /error/code");
        return Optional.empty();
      }
      return Optional.of(s);
    });
  }

  static Optional<String> method(YamlValue v) {
    return v.string("an HTTP method such as GET or POST").flatMap(s -> {
      if (Route.isMethod(s)) {
        return Optional.of(s);
      }
      if (Syntax.isToken(s)) {
        v.error("found '" + s + "', expected an upper-case HTTP method: '" + s.toUpperCase(java.util.Locale.ROOT)
            + "' (methods are case-sensitive)");
      } else {
        v.error("found '" + s + "', expected an HTTP method such as GET or POST");
      }
      return Optional.empty();
    });
  }

  /**
   * Builds a record whose invariants the reader has already checked. Should a check here be
   * missing, the record's own message still reaches the user as a problem, never as a crash.
   */
  static <T> Optional<T> build(YamlValue at, Supplier<T> constructor) {
    try {
      return Optional.of(constructor.get());
    } catch (IllegalArgumentException e) {
      at.error(String.valueOf(e.getMessage()));
      return Optional.empty();
    } catch (java.util.NoSuchElementException | NullPointerException e) {
      at.error("this part could not be checked (" + e.getClass().getSimpleName() + "); please report it with the file");
      return Optional.empty();
    }
  }

  static List<String> sorted(Set<String> names) {
    return names.stream().sorted().toList();
  }
}
