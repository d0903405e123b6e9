package dev.sluice.gateway.internal;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.core.Sluice;
import dev.sluice.core.escalation.DecisionException;
import dev.sluice.core.escalation.DecisionOption;
import dev.sluice.core.escalation.DecisionRequest;
import dev.sluice.core.escalation.DecisionResult;
import dev.sluice.core.escalation.Escalation;
import dev.sluice.core.escalation.EscalationId;
import dev.sluice.core.escalation.EscalationJson;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The operator's escalation endpoints (docs/GATEWAY.md), behind the operator token the admin API
 * checks first: {@code GET /v1/escalations} (summaries, oldest first; {@code ?state=open} for the
 * inbox), {@code GET /v1/escalations/{id}} (the escalation with its dossier and options), and
 * {@code POST /v1/escalations/{id}/decision} with {@code {"option", "by", "reason", "confirm"}}.
 * Refusals are problem documents: 400 for a malformed id or body, 404 for an unknown escalation,
 * 409 when it is already decided, 422 when the option is not offered or lacks its confirmation.
 */
public final class EscalationEndpoints {
  private static final Logger LOG = LoggerFactory.getLogger(EscalationEndpoints.class);
  private static final int MAX_DECISION_BYTES = 16 * 1024;

  private final Sluice sluice;
  private final String operator;

  /**
   * @param operator the id of the operator whose token authenticated the request: recorded with
   *     the {@code by} the body gives, so a decision or a body view names who really held the token
   */
  public EscalationEndpoints(Sluice sluice, String operator) {
    this.sluice = sluice;
    this.operator = operator;
  }

  /** {@code by} as recorded: the name given, and the authenticated operator when it differs. */
  String recordedBy(String by) {
    if (by.equals(operator)) {
      return by;
    }
    String given = by.length() > 150 ? by.substring(0, 150) + "…" : by;
    return given + " (operator " + operator + ")";
  }

  /** Handles {@code /v1/escalations...}; {@code seg} is the path split on '/', seg[1] = "escalations". */
  public void handle(Request request, Response response, Callback callback, String[] seg) {
    String method = request.getMethod();
    if (seg.length == 2 && method.equals("GET")) {
      boolean openOnly = "state=open".equals(request.getHttpURI().getQuery());
      List<Map<String, Object>> list = sluice.escalations().stream().filter(e -> !openOnly || e.open()).map(EscalationJson::summary).toList();
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("escalations", list);
      Http.writeJson(response, 200, m, callback);
      return;
    }
    if (seg.length < 3) {
      notFound(response, callback);
      return;
    }
    Optional<EscalationId> id = parse(seg[2]);
    if (id.isEmpty()) {
      problem(response, callback, 400, "bad_escalation_id", "Malformed escalation id", "an escalation id looks like E-12", "use an id from GET /v1/escalations");
      return;
    }
    if (seg.length == 3 && method.equals("GET")) {
      Optional<Escalation> e = sluice.escalation(id.get());
      if (e.isEmpty()) {
        unknown(response, callback, id.get());
        return;
      }
      Http.writeJson(response, 200, EscalationJson.of(e.get()), callback);
      return;
    }
    if (seg.length == 4 && seg[3].equals("body") && method.equals("POST")) {
      Content.Source.asByteArrayAsync(request, MAX_DECISION_BYTES).whenComplete((body, failure) -> {
        if (failure != null) {
          problem(response, callback, 413, "request_too_large", "Request too large", "send {\"by\", \"reason\"}", "send a small JSON object");
          return;
        }
        guarded(response, callback, () -> body(response, callback, id.get(), body));
      });
      return;
    }
    if (seg.length == 4 && seg[3].equals("decision") && method.equals("POST")) {
      Content.Source.asByteArrayAsync(request, MAX_DECISION_BYTES).whenComplete((body, failure) -> {
        if (failure != null) {
          problem(response, callback, 413, "decision_too_large", "Decision too large", "a decision is a small JSON object (at most "
              + MAX_DECISION_BYTES + " bytes)", "send {\"option\", \"by\", \"reason\", \"confirm\"}");
          return;
        }
        guarded(response, callback, () -> decide(response, callback, id.get(), body));
      });
      return;
    }
    notFound(response, callback);
  }

  /**
   * Runs a handler inside the body's completion, where an exception would be swallowed and the
   * request left hanging (review): anything unexpected answers 500, telling the operator to read
   * the escalation again before deciding anew (the decision may have been recorded).
   */
  private void guarded(Response response, Callback callback, Runnable handler) {
    try {
      handler.run();
    } catch (RuntimeException e) {
      LOG.warn("escalation endpoint failed: {}", e.toString());
      problem(response, callback, 500, "internal_error", "Internal error", "the request failed inside Sluice; the decision may or may not be recorded",
          "read the escalation again (GET /v1/escalations/{id}) before deciding anew");
    }
  }

  private void decide(Response response, Callback callback, EscalationId id, byte[] body) {
    DecisionRequest req;
    try {
      JsonNode n = Http.JSON.readTree(body);
      if (n == null || !n.isObject()) {
        throw new IllegalArgumentException("the body is not a JSON object");
      }
      String code = text(n, "option");
      DecisionOption option = DecisionOption.fromCode(code).orElseThrow(() -> new IllegalArgumentException("unknown option '" + code
          + "'; options: " + String.join(", ", Arrays.stream(DecisionOption.values()).map(DecisionOption::code).toList())));
      JsonNode confirm = n.path("confirm");
      if (!confirm.isMissingNode() && !confirm.isBoolean()) {
        throw new IllegalArgumentException("'confirm' is true or false");
      }
      req = new DecisionRequest(option, recordedBy(text(n, "by")), text(n, "reason"), confirm.asBoolean(false));
    } catch (java.io.IOException | IllegalArgumentException e) {
      problem(response, callback, 400, "bad_decision", "Malformed decision", e instanceof java.io.IOException ? "the body is not JSON" : e.getMessage(),
          "send {\"option\": \"query_existing\", \"by\": \"your name\", \"reason\": \"why\"} (and \"confirm\": true for send_new)");
      return;
    }
    DecisionResult r;
    try {
      r = sluice.decide(id, req);
    } catch (DecisionException e) {
      int status = switch (e.kind()) {
        case NOT_FOUND -> 404;
        case ALREADY_DECIDED -> 409;
        case NOT_OFFERED, CONFIRMATION_REQUIRED -> 422;
      };
      problem(response, callback, status, e.kind().name().toLowerCase(java.util.Locale.ROOT), "Decision not recorded", e.getMessage(),
          "read the escalation (GET /v1/escalations/" + id + ") and choose one of its options");
      return;
    } catch (IllegalStateException e) {
      problem(response, callback, 503, "escalations_unavailable", "Escalations unavailable", e.getMessage(), "run the gateway with its journal");
      return;
    }
    LOG.info("operator {} decided {} on {} ({})", req.by(), req.option().code(), id, r.escalation().trigger().code());
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("escalation", EscalationJson.of(r.escalation()));
    r.actionId().ifPresent(a -> m.put("action", a.toString()));
    Http.writeJson(response, 200, m, callback);
  }

  /** The stored request body: a separate, audited act ({@code escalation_body_viewed} with who and why). */
  private void body(Response response, Callback callback, EscalationId id, byte[] request) {
    String by;
    String reason;
    try {
      JsonNode n = Http.JSON.readTree(request);
      if (n == null || !n.isObject()) {
        throw new IllegalArgumentException("the body is not a JSON object");
      }
      by = recordedBy(text(n, "by"));
      reason = text(n, "reason");
      DecisionRequest.of(DecisionOption.ACKNOWLEDGE, by, reason); // the same limits as a decision's
    } catch (java.io.IOException | IllegalArgumentException e) {
      problem(response, callback, 400, "bad_request", "Who and why are required", e instanceof java.io.IOException ? "the body is not JSON"
          : e.getMessage(), "send {\"by\": \"your name\", \"reason\": \"why you need the body\"}: the view is audited");
      return;
    }
    Optional<Escalation> e = sluice.escalation(id);
    if (e.isEmpty()) {
      unknown(response, callback, id);
      return;
    }
    Optional<byte[]> bytes = sluice.escalationBody(id, by, reason);
    if (bytes.isEmpty()) {
      problem(response, callback, 404, "body_not_kept", "Body not kept", "the journal did not keep this action's body (it was over the journal's"
          + " cap); only its size and digest are known", "see the dossier's body summary");
      return;
    }
    // The reason is the operator's free text: one log line, control characters (a forged second line) replaced.
    LOG.info("operator {} viewed the body of the action of {} ({})", by, id, reason.replaceAll("\\p{Cntrl}", "?"));
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("escalation", id.toString());
    m.put("action", e.get().dossier().actionId());
    m.put("size", bytes.get().length);
    m.put("sha256", e.get().dossier().body().sha256());
    m.put("body_base64", java.util.Base64.getEncoder().encodeToString(bytes.get()));
    Http.writeJson(response, 200, m, callback);
  }

  private static String text(JsonNode n, String field) {
    JsonNode v = n.get(field);
    if (v == null || !v.isTextual() || v.asText().isBlank()) {
      throw new IllegalArgumentException("'" + field + "' is required, a non-empty string");
    }
    return v.asText();
  }

  private static Optional<EscalationId> parse(String s) {
    try {
      return Optional.of(EscalationId.parse(s));
    } catch (IllegalArgumentException e) {
      return Optional.empty();
    }
  }

  private static void unknown(Response response, Callback callback, EscalationId id) {
    problem(response, callback, 404, "unknown_escalation", "Unknown escalation", "there is no escalation " + id, "list them: GET /v1/escalations");
  }

  private static void notFound(Response response, Callback callback) {
    problem(response, callback, 404, "unknown_endpoint", "Unknown admin endpoint",
        "known: GET /v1/escalations, GET /v1/escalations/{id}, POST /v1/escalations/{id}/decision, POST /v1/escalations/{id}/body",
        "use one of the known endpoints");
  }

  private static void problem(Response response, Callback callback, int status, String code, String title, String detail, String next) {
    Http.writeProblem(response, Problem.refused(status, code, title, detail, next), callback);
  }
}
