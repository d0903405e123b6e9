package dev.sluice.mcp.internal;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.core.classify.AttemptResult;
import dev.sluice.core.http.Headers;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A provider's response as the model sees it: the status, the headers that matter (rate-limit and
 * {@code Retry-After} fields, content type, location, validators), and the body — parsed JSON when
 * it is JSON and whole, text otherwise — cut at the cap with an explicit {@code truncated} flag.
 * Never a credential: only the listed fields are shown, so a provider echoing a token in another
 * header does not reach the model.
 */
public final class ResponseView {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Set<String> SHOWN = Set.of("content-type", "content-length", "content-language", "location", "etag", "last-modified",
      "link", "retry-after", "retry-after-ms", "idempotent-replayed", "x-request-id", "request-id");

  private ResponseView() {}

  /** Whether a response header is shown to the model. */
  static boolean shown(String name, Optional<String> credentialHeader) {
    String n = name.toLowerCase(Locale.ROOT);
    if (credentialHeader.isPresent() && credentialHeader.get().equalsIgnoreCase(n)) {
      return false;
    }
    return SHOWN.contains(n) || n.contains("ratelimit") || n.contains("rate-limit");
  }

  /** The view of {@code r} with a body cap of {@code cap} bytes. */
  public static Map<String, Object> of(AttemptResult.Response r, int cap, Optional<String> credentialHeader) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("status", r.status());
    Map<String, String> headers = new LinkedHashMap<>();
    for (Map.Entry<String, List<String>> e : r.headers().asMap().entrySet()) {
      if (shown(e.getKey(), credentialHeader)) {
        headers.put(e.getKey().toLowerCase(Locale.ROOT), String.join(", ", e.getValue()));
      }
    }
    m.put("headers", headers);
    Optional<String> type = r.headers().first("Content-Type");
    m.put("content_type", type.orElse(null));
    byte[] body = r.bodyPrefix();
    boolean truncated = body.length > cap || declaredLonger(r.headers(), body.length);
    byte[] shownBytes = body.length > cap ? java.util.Arrays.copyOf(body, cap) : body;
    String format;
    Object value;
    if (body.length == 0) {
      format = "empty";
      value = null;
    } else if (!textual(type)) {
      format = "binary";
      value = null;
    } else if (!truncated && json(type)) {
      Object parsed = parse(body);
      format = parsed != null ? "json" : "text";
      value = parsed != null ? parsed : utf8(shownBytes);
    } else {
      format = "text";
      value = utf8(shownBytes);
    }
    m.put("body", value);
    m.put("body_format", format);
    m.put("body_bytes", body.length);
    m.put("truncated", truncated);
    m.put("body_cap_bytes", cap);
    return m;
  }

  private static boolean declaredLonger(Headers h, int have) {
    try {
      return h.first("Content-Length").map(v -> Long.parseLong(v.trim()) > have).orElse(false);
    } catch (NumberFormatException e) {
      return false;
    }
  }

  private static boolean json(Optional<String> type) {
    return type.map(t -> {
      String s = t.toLowerCase(Locale.ROOT);
      int semi = s.indexOf(';');
      String base = (semi < 0 ? s : s.substring(0, semi)).trim();
      return base.equals("application/json") || base.endsWith("+json");
    }).orElse(false);
  }

  private static boolean textual(Optional<String> type) {
    if (type.isEmpty()) {
      return true; // shown as text when it decodes; undecodable bytes are replaced
    }
    String s = type.get().toLowerCase(Locale.ROOT);
    return s.startsWith("text/") || json(type) || s.contains("xml") || s.contains("x-www-form-urlencoded") || s.contains("javascript")
        || s.contains("yaml") || s.contains("csv");
  }

  private static Object parse(byte[] body) {
    try {
      return JSON.readValue(body, Object.class);
    } catch (java.io.IOException e) {
      return null;
    }
  }

  /** UTF-8 text; a sequence cut by the cap or not UTF-8 at all becomes U+FFFD. */
  private static String utf8(byte[] b) {
    try {
      return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPLACE).onUnmappableCharacter(CodingErrorAction.REPLACE)
          .decode(ByteBuffer.wrap(b)).toString();
    } catch (CharacterCodingException e) {
      return new String(b, StandardCharsets.UTF_8);
    }
  }
}
