package dev.sluice.core.engine.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.core.classify.AttemptResult;
import dev.sluice.core.classify.Classification;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * Normalized fingerprints for the circuit breaker. A fingerprint is a SHA-256 digest, so no
 * payload value (let alone a secret) can be read back from it; headers never enter it at all.
 *
 * <ul>
 *   <li>path: method, route template and the payload's stable fields. A JSON body is written in
 *       canonical form (object members sorted by name, no insignificant whitespace, volatile
 *       members dropped at any depth), so reordering fields or adding whitespace yields the same
 *       path. A body that is not JSON is digested as bytes.
 *   <li>failure: the path plus the normalized error: the verdict, the status, and the provider's
 *       error code when the body has one ({@code /error/code}, {@code /error/type}, {@code /code},
 *       {@code /type}, {@code /error} as text) — never the error message, which often carries ids.
 * </ul>
 */
public final class Fingerprints {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final List<String> ERROR_CODE_POINTERS = List.of("/error/code", "/error/type", "/code", "/type", "/error", "/errors/0/code");

  private Fingerprints() {}

  /** The path fingerprint of an action. */
  public static String path(String method, String routeTemplate, byte[] body, Set<String> volatileFields) {
    return "path:" + digest(method + "\n" + routeTemplate + "\n" + canonicalPayload(body, volatileFields));
  }

  /** The fingerprint of one failure on a path. */
  public static String failure(String pathFingerprint, Classification c, AttemptResult result) {
    return "fp:" + digest(pathFingerprint + "\n" + errorKey(c, result));
  }

  /** The normalized error: verdict, status and the provider's error code. */
  public static String errorKey(Classification c, AttemptResult result) {
    StringBuilder b = new StringBuilder(c.verdict().code());
    c.status().ifPresent(s -> b.append(':').append(s));
    if (result instanceof AttemptResult.Response r) {
      errorCode(r.bodyPrefix()).ifPresent(code -> b.append(':').append(code));
    } else if (result instanceof AttemptResult.Failure f) {
      b.append(':').append(f.kind().code());
    }
    return b.toString();
  }

  /** The canonical text of a payload: canonical JSON, or a digest of non-JSON bytes. */
  public static String canonicalPayload(byte[] body, Set<String> volatileFields) {
    if (body.length == 0) {
      return "";
    }
    try {
      JsonNode node = JSON.readTree(body);
      if (node != null) {
        StringBuilder b = new StringBuilder();
        canonical(node, volatileFields, b);
        return "json:" + b;
      }
    } catch (IOException e) { // not JSON: digest the bytes as they are
    }
    return "bytes:" + digest(body);
  }

  private static void canonical(JsonNode n, Set<String> volatileFields, StringBuilder b) {
    if (n.isObject()) {
      List<String> names = new ArrayList<>();
      for (Iterator<String> it = n.fieldNames(); it.hasNext(); ) {
        String name = it.next();
        if (!volatileFields.contains(name)) {
          names.add(name);
        }
      }
      Collections.sort(names);
      b.append('{');
      for (int i = 0; i < names.size(); i++) {
        if (i > 0) {
          b.append(',');
        }
        b.append(JSON.getNodeFactory().textNode(names.get(i)).toString()).append(':');
        canonical(n.get(names.get(i)), volatileFields, b);
      }
      b.append('}');
    } else if (n.isArray()) {
      b.append('[');
      for (int i = 0; i < n.size(); i++) {
        if (i > 0) {
          b.append(',');
        }
        canonical(n.get(i), volatileFields, b);
      }
      b.append(']');
    } else if (n.isNumber()) {
      // 1, 1.0 and 1e0 are the same number to a provider.
      b.append(n.decimalValue().stripTrailingZeros().toPlainString());
    } else {
      b.append(n.toString());
    }
  }

  private static Optional<String> errorCode(byte[] body) {
    if (body.length == 0) {
      return Optional.empty();
    }
    try {
      JsonNode node = JSON.readTree(body);
      if (node == null) {
        return Optional.empty();
      }
      for (String p : ERROR_CODE_POINTERS) {
        JsonNode at = node.at(p);
        if (at.isValueNode() && !at.asText().isBlank()) {
          String code = at.asText().trim().toLowerCase(Locale.ROOT);
          return Optional.of(code.length() > 64 ? code.substring(0, 64) : code);
        }
      }
    } catch (IOException e) { // not JSON: no code
    }
    return Optional.empty();
  }

  private static String digest(String s) {
    return digest(s.getBytes(StandardCharsets.UTF_8));
  }

  private static String digest(byte[] bytes) {
    try {
      byte[] d = MessageDigest.getInstance("SHA-256").digest(bytes);
      return HexFormat.of().formatHex(d, 0, 12);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is required of every JVM", e);
    }
  }
}
