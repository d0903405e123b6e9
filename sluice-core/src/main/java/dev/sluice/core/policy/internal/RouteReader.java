package dev.sluice.core.policy.internal;

import dev.sluice.core.policy.Approval;
import dev.sluice.core.policy.Lookup;
import dev.sluice.core.policy.LookupTemplate;
import dev.sluice.core.policy.OperationIdSource;
import dev.sluice.core.policy.Provider;
import dev.sluice.core.policy.Route;
import dev.sluice.core.policy.RouteTemplate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Reads one provider's {@code routes}: method, template, class reference (checked later, once all
 * classes are known), look-up, external reference, operation id and approval; and refuses two
 * routes that would match the same requests.
 */
final class RouteReader {
  private final Problems problems;
  private final List<YamlValue> classRefs;

  RouteReader(Problems problems, List<YamlValue> classRefs) {
    this.problems = problems;
    this.classRefs = classRefs;
  }

  List<Route> routes(YamlValue v, boolean providerHasIdempotency) {
    List<Route> out = new ArrayList<>();
    Map<String, YamlValue> seen = new HashMap<>();
    v.list("a list of routes such as {method: GET, path: \"/v1/items/{id}\", class: read}").ifPresent(items -> {
      for (YamlValue item : items) {
        route(item, providerHasIdempotency, seen).ifPresent(out::add);
      }
    });
    return out;
  }

  private Optional<Route> route(YamlValue v, boolean providerHasIdempotency, Map<String, YamlValue> seen) {
    int before = problems.count();
    Optional<YamlMapping> mo = v.mapping(PolicyReader.ROUTE_KEYS, PolicyReader.ROUTE_HINTS, "a mapping with method, path and class");
    if (mo.isEmpty()) {
      return Optional.empty();
    }
    YamlMapping m = mo.get();
    Optional<String> method = m.required("method", "an HTTP method such as GET or POST").flatMap(Fields::method);
    Optional<YamlValue> pathNode = m.required("path", "a path template such as /v1/items/{id}");
    Optional<RouteTemplate> path = pathNode.flatMap(this::routeTemplate);
    Optional<YamlValue> classNode = m.required("class", "the name of a request class such as read");
    Optional<String> cls = classNode.flatMap(x -> x.string("the name of a request class such as read"));
    if (cls.isPresent()) {
      classRefs.add(classNode.get());
    }
    boolean immutable = false;
    Optional<YamlValue> immNode = m.optional("immutable");
    if (immNode.isPresent()) {
      Optional<Boolean> b = immNode.get().bool();
      if (b.isPresent() && b.get() && method.isPresent() && !Route.isRead(method.get())) {
        immNode.get().error("only GET and HEAD routes can be immutable (coalescing is for reads of resources that never change); found " + method.get());
      }
      immutable = b.orElse(false);
    }
    Optional<YamlValue> extNode = m.optional("external_reference");
    Optional<String> external = extNode.flatMap(x -> x.string("the name of a JSON body field such as client_reference")).flatMap(s -> {
      if (s.isEmpty() || s.length() > 128 || Syntax.hasControl(s)) {
        extNode.get().error("expected a body field name of 1-128 printable characters");
        return Optional.empty();
      }
      if (method.isPresent() && Route.isRead(method.get())) {
        extNode.get().error("external_reference names a request body field, and " + method.get() + " requests have no body");
        return Optional.empty();
      }
      return Optional.of(s);
    });
    Optional<OperationIdSource> operationId = m.optional("operation_id").flatMap(this::operationId);
    Map<String, Approval> approvals = new LinkedHashMap<>();
    for (Approval a : Approval.values()) {
      approvals.put(a.configName(), a);
    }
    Approval approval = m.optional("approval").flatMap(x -> x.choice(approvals)).orElse(Approval.NONE);
    Optional<YamlValue> lookupNode = m.optional("lookup");
    Optional<Lookup> lookup = lookupNode.flatMap(this::lookup);

    if (method.isPresent() && path.isPresent()) {
      String key = method.get() + " " + path.get().shape();
      YamlValue first = seen.putIfAbsent(key, v);
      if (first != null) {
        pathNode.get().error("duplicate route: " + method.get() + " " + path.get() + " matches the same requests as " + first.path()
            + " (line " + first.line() + ")");
      }
    }
    if (problems.count() > before) {
      return Optional.empty();
    }
    boolean imm = immutable;
    Optional<Route> route = Fields.build(v, () -> new Route(method.get(), path.get(), cls.get(), imm, lookup, external, operationId, approval));
    if (route.isPresent() && lookup.isPresent()) {
      YamlValue lookupPath = lookupNode.get();
      for (String p : Fields.sorted(lookup.get().path().placeholders())) {
        Provider.placeholderProblem(p, route.get(), providerHasIdempotency).ifPresent(why ->
            problems.at(lookupPath.node(), YamlValue.child(lookupPath.path(), "path"), why));
      }
      if (problems.count() > before) {
        return Optional.empty();
      }
    }
    return route;
  }

  private Optional<RouteTemplate> routeTemplate(YamlValue v) {
    return v.string("a path template such as /v1/items/{id}").flatMap(s -> {
      try {
        return Optional.of(RouteTemplate.compile(s));
      } catch (IllegalArgumentException e) {
        v.error("found '" + s + "': " + e.getMessage());
        return Optional.empty();
      }
    });
  }

  private Optional<Lookup> lookup(YamlValue v) {
    int before = problems.count();
    Optional<YamlMapping> mo = v.mapping(PolicyReader.LOOKUP_KEYS, null,
        "a mapping with method and path, such as {method: GET, path: \"/v1/items?key={idempotency_key}\"}");
    if (mo.isEmpty()) {
      return Optional.empty();
    }
    YamlMapping m = mo.get();
    Optional<YamlValue> methodNode = m.optional("method");
    Optional<String> given = methodNode.flatMap(Fields::method);
    String method = given.orElse("GET");
    if (given.isPresent() && !Route.isRead(method)) {
      methodNode.get().error("found " + method + ", expected GET or HEAD: a look-up must never change anything");
    }
    Optional<LookupTemplate> path = m.required("path", "a path such as /v1/items?key={idempotency_key}").flatMap(x ->
        x.string("a path such as /v1/items?key={idempotency_key}").flatMap(s -> {
          try {
            LookupTemplate t = LookupTemplate.compile(s);
            if (t.placeholders().isEmpty()) {
              x.error("found '" + s + "', which names no action; expected a placeholder such as {idempotency_key}, "
                  + "{external_reference} or {operation_id}");
              return Optional.empty();
            }
            return Optional.of(t);
          } catch (IllegalArgumentException e) {
            x.error("found '" + s + "': " + e.getMessage());
            return Optional.empty();
          }
        }));
    if (problems.count() > before) {
      return Optional.empty();
    }
    return Fields.build(v, () -> new Lookup(method, path.get()));
  }

  private Optional<OperationIdSource> operationId(YamlValue v) {
    Optional<YamlMapping> mo = v.mapping(PolicyReader.OPERATION_ID_KEYS, null, "a mapping with json_pointer (e.g. /id) or header (e.g. Location)");
    if (mo.isEmpty()) {
      return Optional.empty();
    }
    YamlMapping m = mo.get();
    if (m.has("json_pointer") == m.has("header")) {
      if (!m.has("header") && (m.misspelt("json_pointer") || m.misspelt("header"))) {
        return Optional.empty();
      }
      problems.at(m.self().node(), m.self().path(), (m.has("header") ? "both json_pointer and header are set" : "neither json_pointer nor header is set")
          + "; expected exactly one (json_pointer: /id, or header: Location)");
      return Optional.empty();
    }
    if (m.has("json_pointer")) {
      return m.required("json_pointer", "an RFC 6901 JSON pointer such as /id").flatMap(Fields::jsonPointer).map(OperationIdSource::jsonPointer);
    }
    return m.required("header", "a response header field name such as Location").flatMap(x -> x.string("a header field name").flatMap(s -> {
      if (!Syntax.isToken(s)) {
        x.error("found '" + s + "', which is not a header field name");
        return Optional.empty();
      }
      return Optional.of(OperationIdSource.header(s));
    }));
  }
}
