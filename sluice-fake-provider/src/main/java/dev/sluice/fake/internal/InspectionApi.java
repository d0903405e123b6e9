package dev.sluice.fake.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.fake.Attempt;
import dev.sluice.fake.FakeConfigException;
import dev.sluice.fake.FaultRule;
import dev.sluice.fake.StoredRecord;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * The control and ground-truth API under {@code /__fake}: never rate-limited, never faulted, never
 * logged as an attempt, and it needs no credential. Served only when inspection is enabled.
 *
 * <pre>
 * GET    /__fake/attempts    every attempt (filters: method, path, family, scope, task, idempotency_key, result)
 * GET    /__fake/records     every record ever created, deleted ones included (filters: family, client_reference, idempotency_key)
 * GET    /__fake/operations  every write's operation
 * GET    /__fake/balance     the balance
 * GET    /__fake/faults      the active fault rules with their match counts
 * POST   /__fake/faults      add rule(s): a JSON object or array, same keys as the config file
 * DELETE /__fake/faults      remove every rule (configured ones come back on reset)
 * POST   /__fake/release     release every held request
 * POST   /__fake/reset       back to the starting state
 * </pre>
 */
final class InspectionApi {

  private final ProviderCore core;

  InspectionApi(ProviderCore core) {
    this.core = core;
  }

  void handle(Request request, Response response, Callback callback, String path) {
    String method = request.getMethod().toUpperCase(Locale.ROOT);
    Map<String, String> q = Exchange.parseQuery(request.getHttpURI().getQuery());
    String route = path.endsWith("/") && path.length() > 1 ? path.substring(0, path.length() - 1) : path;
    int status = 200;
    JsonNode body;
    switch (method + " " + route) {
      case "GET /__fake" -> body = index();
      case "GET /__fake/attempts" -> body = Json.arrayOf(filterAttempts(core.log.snapshot(), q), Json::attempt);
      case "GET /__fake/records" -> body = Json.arrayOf(filterRecords(core.store.records(), q), Json::record);
      case "GET /__fake/operations" -> body = Json.arrayOf(core.store.operations(), Json::operation);
      case "GET /__fake/balance" -> {
        ObjectNode b = Json.object();
        b.put("available", core.store.balance());
        body = b;
      }
      case "GET /__fake/faults" -> body = rules();
      case "POST /__fake/faults" -> {
        try {
          List<FaultRule> rules = ConfigReader.readFaults("request body", readBody(request));
          rules.forEach(core.faults::add);
          ObjectNode r = Json.object();
          r.put("added", rules.size());
          r.set("active", rules());
          status = 201;
          body = r;
        } catch (FakeConfigException e) {
          status = 400;
          body = Json.parse(Json.error("invalid_fault", e.getMessage()).getBytes(StandardCharsets.UTF_8)).orElseThrow();
        }
      }
      case "DELETE /__fake/faults" -> {
        int n = core.faults.active().size();
        core.faults.clear();
        ObjectNode r = Json.object();
        r.put("removed", n);
        body = r;
      }
      case "POST /__fake/release" -> {
        ObjectNode r = Json.object();
        r.put("released", core.gate.releaseAll());
        body = r;
      }
      case "POST /__fake/reset" -> {
        core.reset();
        ObjectNode r = Json.object();
        r.put("reset", true);
        body = r;
      }
      default -> {
        status = index().has(route) ? 405 : 404;
        body = Json.parse(Json.error(status == 405 ? "method_not_allowed" : "not_found",
            "see GET /__fake for the inspection API").getBytes(StandardCharsets.UTF_8)).orElseThrow();
      }
    }
    response.setStatus(status);
    response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/json");
    Content.Sink.write(response, true, Json.write(body), callback);
  }

  private ObjectNode index() {
    ObjectNode n = Json.object();
    n.put("/__fake/attempts", "GET: every attempt received");
    n.put("/__fake/records", "GET: every record created");
    n.put("/__fake/operations", "GET: every write's operation");
    n.put("/__fake/balance", "GET: the balance");
    n.put("/__fake/faults", "GET: active rules; POST: add rule(s); DELETE: remove all");
    n.put("/__fake/release", "POST: release held requests");
    n.put("/__fake/reset", "POST: back to the starting state");
    return n;
  }

  private ArrayNode rules() {
    ArrayNode a = Json.array();
    core.faults.active().forEach(r -> a.add(Json.rule(r.rule(), r.matched().get())));
    return a;
  }

  private static byte[] readBody(Request request) {
    try {
      return Content.Source.asByteArrayAsync(request, Exchange.MAX_BODY_BYTES).get();
    } catch (ExecutionException | InterruptedException e) {
      if (e instanceof InterruptedException) {
        Thread.currentThread().interrupt();
      }
      throw new FakeConfigException("request body", "", "cannot be read");
    }
  }

  private static List<Attempt> filterAttempts(List<Attempt> all, Map<String, String> q) {
    return all.stream()
        .filter(a -> eq(q, "method", a.method()) && eq(q, "path", a.path()) && eq(q, "family", a.family())
            && eq(q, "scope", a.scope()) && eq(q, "result", a.result().configName())
            && opt(q, "task", a.task()) && opt(q, "idempotency_key", a.idempotencyKey()))
        .toList();
  }

  private static List<StoredRecord> filterRecords(List<StoredRecord> all, Map<String, String> q) {
    return all.stream()
        .filter(r -> eq(q, "family", r.family()) && opt(q, "client_reference", r.clientReference())
            && opt(q, "idempotency_key", r.idempotencyKey()))
        .toList();
  }

  private static boolean eq(Map<String, String> q, String k, String v) {
    String want = q.get(k);
    return want == null || (k.equals("method") ? want.equalsIgnoreCase(v) : want.equals(v));
  }

  private static boolean opt(Map<String, String> q, String k, Optional<String> v) {
    String want = q.get(k);
    return want == null || v.map(want::equals).orElse(false);
  }
}
