package dev.sluice.fake.internal;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.exc.InvalidFormatException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.sluice.fake.ConcurrencyLimit;
import dev.sluice.fake.DailyQuota;
import dev.sluice.fake.Dialect;
import dev.sluice.fake.FakeConfigException;
import dev.sluice.fake.FakeProviderConfig;
import dev.sluice.fake.Fault;
import dev.sluice.fake.FaultRule;
import dev.sluice.fake.OverQuotaResponse;
import dev.sluice.fake.Quota;
import dev.sluice.fake.RetryAfterFormat;
import dev.sluice.fake.RouteFamily;
import dev.sluice.fake.ScopeBy;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Supplier;

/**
 * Reads the YAML config file and posted fault rules. Every problem becomes one {@link
 * FakeConfigException} line naming the source, the key and what was expected; nothing here echoes
 * a credential ({@code accepted_credentials} values are never quoted).
 */
public final class ConfigReader {

  private static final ObjectMapper YAML = configure(new YAMLMapper());
  private static final ObjectMapper JSON = configure(new ObjectMapper());

  private ConfigReader() {}

  private static ObjectMapper configure(ObjectMapper m) {
    m.setPropertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE);
    m.enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);
    m.enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
    m.disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT);
    m.enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);
    return m;
  }

  /** Reads a config file on top of the defaults. */
  public static FakeProviderConfig readFile(Path file) {
    String source = file.toString();
    String text;
    try {
      text = Files.readString(file);
    } catch (IOException e) {
      throw new FakeConfigException(source, "", "cannot read the file (" + e.getClass().getSimpleName() + ")");
    }
    return read(source, text);
  }

  /** Reads config text (YAML, or JSON which is YAML too) on top of the defaults. */
  public static FakeProviderConfig read(String source, String text) {
    ConfigSpec.File spec;
    try {
      JsonNode tree = YAML.readTree(text);
      if (tree == null || tree.isMissingNode() || tree.isNull()) {
        return FakeProviderConfig.defaults(); // an empty file, or only comments
      }
      spec = YAML.treeToValue(tree, ConfigSpec.File.class);
    } catch (IOException e) {
      throw translate(source, e);
    }
    return toConfig(source, spec);
  }

  /** Reads one fault rule (a JSON object) or several (a JSON array), as posted to {@code /__fake/faults}. */
  public static List<FaultRule> readFaults(String source, byte[] json) {
    JsonNode tree;
    try {
      tree = JSON.readTree(json);
    } catch (IOException e) {
      throw translate(source, e);
    }
    if (tree == null || !(tree.isObject() || tree.isArray())) {
      throw new FakeConfigException(source, "", "expected a fault rule object or an array of them");
    }
    List<ConfigSpec.FaultSpec> specs = new ArrayList<>();
    try {
      if (tree.isArray()) {
        for (JsonNode n : tree) {
          specs.add(JSON.treeToValue(n, ConfigSpec.FaultSpec.class));
        }
      } else {
        specs.add(JSON.treeToValue(tree, ConfigSpec.FaultSpec.class));
      }
    } catch (IOException e) {
      throw translate(source, e);
    }
    List<FaultRule> rules = new ArrayList<>();
    for (int i = 0; i < specs.size(); i++) {
      rules.add(fault(source, tree.isArray() ? "[" + i + "]" : "", specs.get(i)));
    }
    return rules;
  }

  // ---- Jackson errors -> one line

  private static FakeConfigException translate(String source, IOException e) {
    if (e instanceof JsonMappingException m && m.getCause() instanceof JsonProcessingException p) {
      // A syntax error met while binding: report where it is, not the half-bound key.
      return syntax(source, p);
    }
    if (e instanceof UnrecognizedPropertyException u) {
      Set<String> known = new TreeSet<>();
      Collection<Object> ids = u.getKnownPropertyIds();
      if (ids != null) {
        ids.forEach(id -> known.add(String.valueOf(id)));
      }
      return new FakeConfigException(source, path(u), "unknown key; expected one of: " + String.join(", ", known));
    }
    if (e instanceof InvalidFormatException f) {
      return new FakeConfigException(source, path(f), "expected " + describe(f.getTargetType()) + ", got '" + f.getValue() + "'");
    }
    if (e instanceof MismatchedInputException m) {
      return new FakeConfigException(source, path(m), "expected " + describe(m.getTargetType()));
    }
    if (e instanceof JsonMappingException m && !m.getPath().isEmpty()) {
      return new FakeConfigException(source, path(m), firstLine(m.getOriginalMessage()));
    }
    if (e instanceof JsonProcessingException p) {
      return syntax(source, p);
    }
    return new FakeConfigException(source, "", "cannot be read (" + e.getClass().getSimpleName() + ")");
  }

  private static FakeConfigException syntax(String source, JsonProcessingException p) {
    String where = p.getLocation() == null ? "" : "line " + p.getLocation().getLineNr() + ", column " + p.getLocation().getColumnNr();
    return new FakeConfigException(source, where, "not valid YAML/JSON (" + problem(p.getOriginalMessage()) + ")");
  }

  /** SnakeYAML writes the context, a source excerpt and the problem on separate lines; keep context and problem. */
  private static String problem(String message) {
    if (message == null) {
      return "no detail";
    }
    List<String> lines = message.strip().lines()
        .filter(l -> !l.isBlank() && !Character.isWhitespace(l.charAt(0)) && !l.contains("^"))
        .toList();
    if (lines.isEmpty()) {
      return firstLine(message);
    }
    String first = lines.get(0);
    String last = lines.get(lines.size() - 1);
    return firstLine(first.equals(last) ? first : first + "; " + last);
  }

  private static String firstLine(String s) {
    if (s == null) {
      return "no detail";
    }
    String line = s.strip().lines().findFirst().orElse("");
    return line.length() > 160 ? line.substring(0, 160) + "..." : line;
  }

  private static String path(JsonMappingException e) {
    StringBuilder b = new StringBuilder();
    for (JsonMappingException.Reference r : e.getPath()) {
      if (r.getFieldName() != null) {
        if (!b.isEmpty()) {
          b.append('.');
        }
        b.append(r.getFieldName());
      } else if (r.getIndex() >= 0) {
        b.append('[').append(r.getIndex()).append(']');
      }
    }
    return b.toString();
  }

  private static String describe(Class<?> type) {
    if (type == null) {
      return "another kind of value";
    }
    if (type == Long.class || type == Integer.class || type == long.class || type == int.class) {
      return "an integer";
    }
    if (type == Double.class || type == double.class) {
      return "a number";
    }
    if (type == Boolean.class || type == boolean.class) {
      return "true or false";
    }
    if (type == String.class) {
      return "a single value (text or number)";
    }
    if (List.class.isAssignableFrom(type) || Collection.class.isAssignableFrom(type)) {
      return "a list";
    }
    return "a mapping of keys to values";
  }

  // ---- spec -> config, checking every value

  private static <T> T at(String source, String key, Supplier<T> s) {
    try {
      return s.get();
    } catch (IllegalArgumentException | ArithmeticException e) {
      throw new FakeConfigException(source, key, e.getMessage());
    }
  }

  private static FakeProviderConfig toConfig(String src, ConfigSpec.File f) {
    FakeProviderConfig d = FakeProviderConfig.defaults();
    Dialect dialect = f.dialect() == null ? d.dialect()
        : Dialect.fromConfigName(f.dialect()).orElseThrow(() -> new FakeConfigException(src, "dialect",
            "expected one of " + Dialect.configNames() + "; got '" + f.dialect() + "'"));
    RetryAfterFormat retryAfter = f.retryAfter() == null ? d.retryAfterFormat()
        : RetryAfterFormat.fromConfigName(f.retryAfter()).orElseThrow(() -> new FakeConfigException(src, "retry_after",
            "expected one of seconds, http-date, none; got '" + f.retryAfter() + "'"));
    ScopeBy scopeBy = f.scopeBy() == null ? d.scopeBy()
        : ScopeBy.fromConfigName(f.scopeBy()).orElseThrow(() -> new FakeConfigException(src, "scope_by",
            "expected authorization, family or header:NAME; got '" + f.scopeBy() + "'"));
    Quota quota = f.quota() == null ? d.quota() : quota(src, "quota", f.quota());
    Optional<Quota> tokens = Optional.ofNullable(f.tokenQuota()).map(t -> tokenQuota(src, t));
    Optional<DailyQuota> daily = Optional.ofNullable(f.dailyQuota()).map(q -> daily(src, q));
    Optional<ConcurrencyLimit> conc = Optional.ofNullable(f.concurrency()).map(c -> concurrency(src, c));
    OverQuotaResponse over = f.overQuota() == null ? d.overQuota() : overQuota(src, f.overQuota());
    Map<String, RouteFamily> families = families(src, f.families());
    List<FaultRule> faults = new ArrayList<>();
    if (f.faults() != null) {
      for (int i = 0; i < f.faults().size(); i++) {
        ConfigSpec.FaultSpec fs = f.faults().get(i);
        if (fs == null) {
          throw new FakeConfigException(src, "faults[" + i + "]", "expected a fault rule mapping");
        }
        faults.add(fault(src, "faults[" + i + "]", fs));
        String famKey = "faults[" + i + "].family";
        faults.get(i).family().ifPresent(name -> {
          if (!families.containsKey(name)) {
            throw new FakeConfigException(src, famKey, "expected one of the families " + families.keySet() + "; got '" + name + "'");
          }
        });
      }
    }
    List<String> creds = f.acceptedCredentials() == null ? List.of() : f.acceptedCredentials();
    for (int i = 0; i < creds.size(); i++) {
      if (creds.get(i) == null || creds.get(i).isBlank()) {
        throw new FakeConfigException(src, "accepted_credentials[" + i + "]", "expected a non-empty Authorization value");
      }
    }
    String host = f.host() == null ? d.host() : f.host().trim();
    if (host.isEmpty()) {
      throw new FakeConfigException(src, "host", "expected an address such as 127.0.0.1");
    }
    int port = f.port() == null ? d.port() : f.port();
    if (port < 0 || port > 65535) {
      throw new FakeConfigException(src, "port", "expected a port number 0-65535, got " + port);
    }
    return at(src, "", () -> new FakeProviderConfig(host, port, Boolean.TRUE.equals(f.inspect()), dialect, retryAfter,
        scopeBy, quota, tokens, daily, conc, over, families, faults, f.balance() == null ? d.initialBalance() : f.balance(),
        Set.copyOf(creds.stream().map(String::trim).toList())));
  }

  private static Duration period(String src, String key, Double perSeconds) {
    double p = perSeconds == null ? 1.0 : perSeconds;
    if (!(p > 0) || Double.isInfinite(p) || p > 366 * 86400.0) {
      throw new FakeConfigException(src, key, "expected a positive number of seconds (at most a year), got " + p);
    }
    return Duration.ofNanos(Math.round(p * 1e9));
  }

  private static Quota quota(String src, String key, ConfigSpec.QuotaSpec q) {
    if (q.requests() == null) {
      throw new FakeConfigException(src, key + ".requests", "expected an integer of at least 1 (requests per period)");
    }
    Duration per = period(src, key + ".per_seconds", q.perSeconds());
    long burst = q.burst() == null ? q.requests() : q.burst();
    return at(src, key, () -> new Quota(q.requests(), per, burst));
  }

  private static Quota tokenQuota(String src, ConfigSpec.TokenQuotaSpec q) {
    if (q.tokens() == null) {
      throw new FakeConfigException(src, "token_quota.tokens", "expected an integer of at least 1 (tokens per period)");
    }
    Duration per = period(src, "token_quota.per_seconds", q.perSeconds());
    long burst = q.burst() == null ? q.tokens() : q.burst();
    return at(src, "token_quota", () -> new Quota(q.tokens(), per, burst));
  }

  private static String jsonBody(String src, String key, String body, String fallback) {
    if (body == null) {
      return fallback;
    }
    if (Json.parse(body.getBytes(java.nio.charset.StandardCharsets.UTF_8)).isEmpty()) {
      throw new FakeConfigException(src, key, "expected a JSON document (the response body)");
    }
    return body;
  }

  private static DailyQuota daily(String src, ConfigSpec.DailySpec q) {
    if (q.requests() == null) {
      throw new FakeConfigException(src, "daily_quota.requests", "expected an integer of at least 1 (requests per UTC day)");
    }
    String body = jsonBody(src, "daily_quota.body", q.body(), DailyQuota.DEFAULT_BODY);
    return at(src, "daily_quota", () -> new DailyQuota(q.requests(), body));
  }

  private static ConcurrencyLimit concurrency(String src, ConfigSpec.ConcurrencySpec c) {
    if (c.limit() == null) {
      throw new FakeConfigException(src, "concurrency.limit", "expected an integer of at least 1 (requests in flight per scope)");
    }
    ConcurrencyLimit base = ConcurrencyLimit.of(Math.max(1, c.limit()));
    String body = jsonBody(src, "concurrency.body", c.body(), base.body());
    return at(src, "concurrency", () -> new ConcurrencyLimit(c.limit(), c.status() == null ? base.status() : c.status(),
        c.retryAfterSeconds() == null ? base.retryAfterSeconds() : c.retryAfterSeconds(), body));
  }

  private static OverQuotaResponse overQuota(String src, ConfigSpec.OverQuotaSpec o) {
    String body = jsonBody(src, "over_quota.body", o.body(), OverQuotaResponse.DEFAULT_BODY);
    return at(src, "over_quota", () -> new OverQuotaResponse(o.status() == null ? 429 : o.status(), body));
  }

  private static Map<String, RouteFamily> families(String src, LinkedHashMap<String, ConfigSpec.FamilySpec> specs) {
    Map<String, RouteFamily> families = RouteFamily.defaults();
    if (specs == null) {
      return families;
    }
    for (Map.Entry<String, ConfigSpec.FamilySpec> e : specs.entrySet()) {
      String name = e.getKey();
      String key = "families." + name;
      ConfigSpec.FamilySpec s = e.getValue() == null
          ? new ConfigSpec.FamilySpec(null, null, null, null, null, null) : e.getValue();
      RouteFamily base = families.get(name);
      if (base == null) {
        if (s.path() == null) {
          throw new FakeConfigException(src, key + ".path", "expected a path such as /v1/customers (a new family needs one)");
        }
        String prefix = s.idPrefix() == null ? name.substring(0, Math.min(3, name.length())) + "_" : s.idPrefix();
        base = at(src, key, () -> RouteFamily.collection(name, s.path(), prefix));
      } else {
        if (s.path() != null && !s.path().equals(base.path())) {
          throw new FakeConfigException(src, key + ".path",
              "the built-in family '" + name + "' lives at " + base.path() + " and cannot move; got '" + s.path() + "'");
        }
        if (s.idPrefix() != null) {
          throw new FakeConfigException(src, key + ".id_prefix", "only a new family takes an id_prefix");
        }
        if (base.kind() != RouteFamily.Kind.COLLECTION && (s.mutable() != null || s.debitsBalance() != null)) {
          throw new FakeConfigException(src, key, "mutable and debits_balance apply to collections only");
        }
      }
      RouteFamily f = base;
      if (s.mutable() != null) {
        f = f.withMutable(s.mutable());
      }
      if (s.idempotency() != null) {
        f = f.withIdempotency(s.idempotency());
      }
      if (s.debitsBalance() != null) {
        f = f.withDebitsBalance(s.debitsBalance());
      }
      if (s.quota() != null) {
        f = f.withQuota(quota(src, key + ".quota", s.quota()));
      }
      families.put(name, f);
    }
    return families;
  }

  private static FaultRule fault(String src, String key, ConfigSpec.FaultSpec s) {
    String k = key.isEmpty() ? "" : key + ".";
    if (s.kind() == null) {
      throw new FakeConfigException(src, k + "kind", "expected one of " + Fault.Kind.configNames());
    }
    Fault.Kind kind = Fault.Kind.fromConfigName(s.kind()).orElseThrow(() -> new FakeConfigException(src, k + "kind",
        "expected one of " + Fault.Kind.configNames() + "; got '" + s.kind() + "'"));
    Set<String> allowed = switch (kind) {
      case LATENCY, HOLD -> Set.of("delay_ms");
      case UNAVAILABLE, RATE_LIMITED -> Set.of("status", "retry_after_seconds");
      case TRUNCATE -> Set.of("bytes");
      case SLOW_BODY -> Set.of("delay_ms", "bytes");
      case TIMEOUT, RESET, DROP_AFTER_COMMIT -> Set.of();
    };
    Map<String, Object> given = new LinkedHashMap<>();
    given.put("delay_ms", s.delayMs());
    given.put("status", s.status());
    given.put("retry_after_seconds", s.retryAfterSeconds());
    given.put("bytes", s.bytes());
    for (Map.Entry<String, Object> g : given.entrySet()) {
      if (g.getValue() != null && !allowed.contains(g.getKey())) {
        throw new FakeConfigException(src, k + g.getKey(),
            "not used by kind '" + kind.configName() + "'" + (allowed.isEmpty() ? "" : " (it takes " + String.join(", ", new TreeSet<>(allowed)) + ")"));
      }
    }
    if (s.delayMs() != null && s.delayMs() < 0) {
      throw new FakeConfigException(src, k + "delay_ms", "expected milliseconds, 0 or more, got " + s.delayMs());
    }
    Fault fault = at(src, key, () -> switch (kind) {
      case LATENCY -> {
        if (s.delayMs() == null) {
          throw new IllegalArgumentException("latency needs delay_ms");
        }
        yield Fault.latency(Duration.ofMillis(s.delayMs()));
      }
      case HOLD -> Fault.hold(s.delayMs() == null ? Fault.DEFAULT_HOLD : Duration.ofMillis(s.delayMs()));
      case UNAVAILABLE -> Fault.serverError(s.status() == null ? 503 : s.status(),
          s.retryAfterSeconds() == null ? OptionalLong.empty() : OptionalLong.of(s.retryAfterSeconds()));
      case RATE_LIMITED -> Fault.rateLimited(s.status() == null ? 429 : s.status(),
          s.retryAfterSeconds() == null ? OptionalLong.empty() : OptionalLong.of(s.retryAfterSeconds()));
      case TIMEOUT -> Fault.timeout();
      case RESET -> Fault.reset();
      case DROP_AFTER_COMMIT -> Fault.dropAfterCommit();
      case TRUNCATE -> Fault.truncate(s.bytes() == null ? -1 : s.bytes());
      case SLOW_BODY -> Fault.slowBody(Duration.ofMillis(s.delayMs() == null ? 50 : s.delayMs()), s.bytes() == null ? 16 : s.bytes());
    });
    long times = 1;
    if (s.times() != null) {
      String t = s.times().trim().toLowerCase(Locale.ROOT);
      if (t.equals("all")) {
        times = Long.MAX_VALUE;
      } else {
        try {
          times = Long.parseLong(t);
        } catch (NumberFormatException e) {
          times = 0;
        }
        if (times < 1) {
          throw new FakeConfigException(src, k + "times", "expected an integer of at least 1, or all; got '" + s.times() + "'");
        }
      }
    }
    long nth = s.nth() == null ? 1 : s.nth();
    long finalTimes = times;
    FaultRule rule = at(src, key, () -> new FaultRule(fault, Optional.ofNullable(s.method()), Optional.ofNullable(s.path()),
        Optional.ofNullable(s.family()), Optional.ofNullable(s.scope()), nth, finalTimes));
    if (rule.method().isPresent() && !rule.method().get().matches("[A-Z]+")) {
      throw new FakeConfigException(src, k + "method", "expected an HTTP method such as POST; got '" + s.method() + "'");
    }
    return rule;
  }
}
