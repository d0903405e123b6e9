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

  /** The same problem with a {@code Retry-After} of {@code seconds}. */
  public Problem withRetryAfter(long seconds) {
    return new Problem(status, body, OptionalLong.of(seconds));
  }

  /**
   * The provider answered (its status stands, and for a write its effect is what that status
   * says) but the body is over {@code gateway.max_response_body_bytes}, so it is not relayed. Not
   * retryable: the same call would get the same large body — and for a write, a repeat could
   * create a second effect. 502 for a read; 424 for a write (a status no common client repeats).
   */
  public static Problem responseTooLarge(Outcome o, String actionId, String task, boolean write, int cap) {
    int providerStatus = o.response().map(r -> r.status()).orElse(0);
    boolean success = providerStatus >= 200 && providerStatus < 300;
    int status = write ? 424 : 502;
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("type", TYPE_BASE + "response_too_large");
    m.put("title", "Provider response too large to relay");
    m.put("status", status);
    m.put("detail", "the provider answered " + providerStatus + " with a body over the gateway's cap of " + cap + " bytes (gateway.max_response_body_bytes); "
        + (write ? (success ? "the write took effect at the provider (it answered " + providerStatus + "), only its answer's body is not relayed"
            : "the write was answered " + providerStatus + " and may have taken effect; its body is not relayed")
            : "the read's body is not relayed"));
    m.putAll(context(o));
    m.put("provider_status", providerStatus);
    m.put("next_safe_action", write ? "do not send this write again: look its result up at the provider, or raise max_response_body_bytes for this route's answers"
        : "raise gateway.max_response_body_bytes (up to 65536) or ask the provider for a smaller answer (pagination, fields)");
    m.put("action_id", actionId);
    m.put("task", task);
    return new Problem(status, m, OptionalLong.empty());
  }

  /**
   * The answer to an agent still waiting when the gateway stops. A journaled action stays open in
   * the journal and the next start resumes it: poll its {@code Location}, never send it again.
   * An unjournaled one (a read) is simply not completed: safe to repeat.
   */
  public static Problem stopping(ActionRegistry.Entry e, String state, boolean journaled) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("type", TYPE_BASE + "gateway_stopping");
    m.put("title", "Gateway stopping");
    m.put("status", 503);
    m.put("detail", journaled
        ? "the gateway is stopping; this action is kept in the journal (" + state + ") and the next start of the gateway on the same data_dir resumes it"
        : "the gateway is stopping; this call did not complete and is not kept");
    m.put("outcome", "gateway_stopping");
    m.put("request_sent", null);
    m.put("journaled", journaled);
    m.put("next_safe_action", journaled ? "do not send it again: poll GET /v1/actions/" + e.id() + " (the Location) once the gateway is back"
        : "repeat the call once the gateway is back (/readyz 200)");
    m.put("action_id", e.id());
    m.put("task", e.task());
    return new Problem(503, m, journaled ? OptionalLong.empty() : OptionalLong.of(5));
  }

  /** The problem document of a terminal outcome; {@code task} is the agent's own task name. */
  public static Problem of(Outcome o, String actionId, String task, Instant now) {
    int status = StatusTable.status(o);
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("type", TYPE_BASE + o.outcome().code());
    m.put("title", StatusTable.title(o.outcome()));
    m.put("status", status);
    m.put("detail", o.reason());
    m.putAll(context(o));
    m.put("action_id", actionId);
    m.put("task", task);
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
