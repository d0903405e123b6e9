package dev.sluice.gateway.internal;

import dev.sluice.core.engine.Outcome;
import dev.sluice.gateway.StatusTable;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.OptionalLong;

/**
 * An RFC 9457 problem document with Sluice's outcome context. Built from an engine {@link
 * Outcome}, or for a refusal by the gateway itself (nothing sent). Never carries a header value or
 * a body of the agent's request: a token or secret there must not come back.
 */
public record Problem(int status, Map<String, Object> body, OptionalLong retryAfterSeconds) {
  public static final String TYPE_BASE = "https://sluice.dev/problems/";
  public static final String MEDIA_TYPE = "application/problem+json";

  /** A refusal by the gateway before anything was queued or sent. */
  public static Problem refused(int status, String code, String title, String detail, String nextSafeAction) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("type", TYPE_BASE + code);
    m.put("title", title);
    m.put("status", status);
    m.put("detail", detail);
    m.put("outcome", "refused");
    m.put("request_sent", false);
    m.put("response_received", false);
    m.put("attempts", 0);
    m.put("waited_seconds", 0.0);
    m.put("last_status", null);
    m.put("next_allowed_at", null);
    m.put("next_safe_action", nextSafeAction);
    return new Problem(status, m, OptionalLong.empty());
  }

  /** The problem document of a terminal outcome. */
  public static Problem of(Outcome o, String actionId, Instant now) {
    int status = StatusTable.status(o);
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("type", TYPE_BASE + o.outcome().code());
    m.put("title", StatusTable.title(o.outcome()));
    m.put("status", status);
    m.put("detail", o.reason());
    m.putAll(context(o));
    m.put("action_id", actionId);
    m.put("task", o.taskId());
    return new Problem(status, m, StatusTable.retryAfterSeconds(o, now));
  }

  /** The outcome context fields, shared by problems and action documents. */
  public static Map<String, Object> context(Outcome o) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("outcome", o.outcome().code());
    m.put("request_sent", o.requestSent());
    m.put("response_received", o.responseReceived());
    m.put("attempts", o.attempts());
    m.put("waited_seconds", Math.round(o.waitedSeconds() * 1000) / 1000.0);
    m.put("last_status", o.lastStatus().isPresent() ? o.lastStatus().getAsInt() : null);
    m.put("next_allowed_at", o.nextAllowedAt().map(Problem::rfc3339).orElse(null));
    m.put("next_safe_action", o.nextSafeAction());
    return m;
  }

  public static String rfc3339(Instant i) {
    return DateTimeFormatter.ISO_INSTANT.format(i.truncatedTo(ChronoUnit.MILLIS));
  }
}
