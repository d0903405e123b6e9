package dev.sluice.gateway.internal;

import dev.sluice.core.Sluice;
import dev.sluice.core.audit.AuditEntry;
import dev.sluice.core.audit.AuditReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.Fields;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code GET /v1/audit?task=&action=&after_seq=&limit=}: the audit log as NDJSON (one {@link
 * AuditEntry#toJson()} object per line, payloads decrypted with the gateway's key), for an operator
 * with the {@code audit_read} permission (checked by the caller). Records come in seq order, those
 * after {@code after_seq} (default 0), at most {@code limit} (default {@value #DEFAULT_LIMIT}, at
 * most {@value #MAX_LIMIT}); {@code Sluice-Audit-Last-Seq} names the last one sent and {@code
 * Sluice-Audit-More: true} says a next page exists ({@code after_seq=<last seq>}). Every export is
 * itself recorded: an {@code audit_exported} event with the operator and the filters.
 */
public final class AuditExport {
  private static final Logger LOG = LoggerFactory.getLogger("dev.sluice.gateway");
  static final int DEFAULT_LIMIT = 1000;
  static final int MAX_LIMIT = 10_000;
  public static final String MEDIA_TYPE = "application/x-ndjson";

  private final Sluice sluice;

  public AuditExport(Sluice sluice) {
    this.sluice = sluice;
  }

  /** Answers the request; {@code refuse} writes a problem (status, code, title, detail, next). */
  public void handle(Request request, Response response, Callback callback, String operator, Refusal refuse) {
    Optional<AuditReader> reader = sluice.auditReader();
    if (reader.isEmpty()) {
      refuse.write(404, "audit_not_enabled", "No audit log", "this Sluice writes no audit log", "enable it (the audit block in sluice.yaml)");
      return;
    }
    Fields q = Request.extractQueryParameters(request);
    for (Fields.Field f : q) {
      if (!java.util.Set.of("task", "action", "after_seq", "limit").contains(f.getName())) {
        refuse.write(400, "bad_query", "Unknown query parameter", "unknown query parameter '" + clip(f.getName()) + "'; known: task, action, after_seq, limit",
            "fix the query");
        return;
      }
    }
    String task = q.getValue("task");
    String action = q.getValue("action");
    long afterSeq;
    int limit;
    try {
      afterSeq = q.getValue("after_seq") == null ? 0 : Long.parseLong(q.getValue("after_seq"));
      limit = q.getValue("limit") == null ? DEFAULT_LIMIT : Integer.parseInt(q.getValue("limit"));
    } catch (NumberFormatException e) {
      refuse.write(400, "bad_query", "Bad query parameter", "after_seq and limit must be whole numbers", "fix the query");
      return;
    }
    if (afterSeq < 0 || limit < 1 || limit > MAX_LIMIT) {
      refuse.write(400, "bad_query", "Bad query parameter", "after_seq must be 0 or more and limit 1 to " + MAX_LIMIT, "fix the query");
      return;
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    long[] last = {afterSeq};
    int[] n = {0};
    boolean[] more = {false};
    try {
      reader.get().read(AuditReader.Position.START, e -> {
        if (e.seq() <= afterSeq || more[0]) {
          return;
        }
        if (task != null && !e.text("task").filter(task::equals).isPresent()) {
          return;
        }
        if (action != null && !e.text("action").filter(action::equals).isPresent()) {
          return;
        }
        if (n[0] == limit) {
          more[0] = true;
          return;
        }
        out.writeBytes(Http.json(e.toJson()));
        out.write('\n');
        last[0] = e.seq();
        n[0]++;
      });
    } catch (IOException e) {
      refuse.write(500, "audit_unreadable", "Audit log unreadable", "the audit log could not be read", "check the audit folder and run 'sluice audit verify'");
      return;
    }
    Map<String, Object> f = new LinkedHashMap<>();
    f.put("operator", operator);
    if (task != null) {
      f.put("task", task);
    }
    if (action != null) {
      f.put("action", action);
    }
    f.put("after_seq", afterSeq);
    f.put("records", n[0]);
    sluice.auditEvent("audit_exported", f);
    LOG.info("operator {} exported {} audit record(s)", operator, n[0]);
    response.getHeaders().put("Sluice-Audit-Last-Seq", String.valueOf(last[0]));
    response.getHeaders().put("Sluice-Audit-More", String.valueOf(more[0]));
    response.getHeaders().put("Cache-Control", "no-store");
    Http.write(response, 200, MEDIA_TYPE, out.toByteArray(), callback);
  }

  /** Writes a refusal as problem+json. */
  @FunctionalInterface
  public interface Refusal {
    void write(int status, String code, String title, String detail, String next);
  }

  private static String clip(String s) {
    String t = s.length() > 40 ? s.substring(0, 40) + "…" : s;
    return t.replaceAll("\\p{Cntrl}", "?");
  }
}
