package dev.sluice.cli;

import dev.sluice.gateway.ScopeJson;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.sluice.core.classify.AttemptResult;
import dev.sluice.core.classify.Classification;
import dev.sluice.core.classify.Classifier;
import dev.sluice.core.policy.QuotaExhaustedMatcher;
import dev.sluice.core.policy.QuotaReset;
import dev.sluice.core.classify.TransportFailure;
import dev.sluice.core.headers.HeaderNote;
import dev.sluice.core.headers.RateLimitDialect;
import dev.sluice.core.headers.RateLimitObservation;
import dev.sluice.core.headers.RateLimitReader;
import dev.sluice.core.headers.RateLimitReading;
import dev.sluice.core.headers.RetryAfterPolicy;
import dev.sluice.core.headers.ServerDelayReading;
import dev.sluice.core.http.Headers;
import dev.sluice.core.policy.Policy;
import dev.sluice.core.policy.PolicyException;
import dev.sluice.core.policy.PolicyLoader;
import dev.sluice.core.policy.Provider;
import dev.sluice.core.policy.RequestClass;
import dev.sluice.core.policy.Route;
import dev.sluice.core.policy.RouteMatch;
import dev.sluice.core.retry.Backoff;
import dev.sluice.core.retry.DelayRange;
import dev.sluice.core.retry.RetryContext;
import dev.sluice.core.retry.RetryDecision;
import dev.sluice.core.retry.RetryPlanner;
import dev.sluice.core.retry.ServerDelay;
import dev.sluice.core.scope.ScopeRecord;
import dev.sluice.core.scope.ScopeUpdate;
import java.io.PrintWriter;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.Callable;
import java.util.random.RandomGenerator;
import java.util.regex.Pattern;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code sluice explain}: the operator's "why did it wait?" tool. Runs one response through the
 * exact code the engine uses (classifier, header readers, scope update, retry planner) and prints
 * the verdict, whether a retry is allowed and why, the delay range, the scope record update and
 * the flags raised.
 */
@Command(
    name = "explain",
    sortOptions = false,
    description = {
      "Explain what Sluice does with one provider response, and why.",
      "Prints the verdict, whether it retries and why, the delay (the full-jitter window or the",
      "server's exact delay and its source), the scope record update in the seed's shape, and",
      "the header flags raised.",
      "",
      "Without --config the request class is --class, or 'read' for GET/HEAD and",
      "'uncertain_write' for other methods (the unmatched-route rule), with the seed's limits;",
      "an idempotent_write is taken to carry an idempotency key the provider honours.",
      "With --config, --provider and --path pick the route, its class, the provider's scope,",
      "rate-limit dialect, quota rules and idempotency support, exactly as the gateway would.",
    },
    footer = {
      "",
      "Examples:",
      "  sluice explain --status 429 -H 'Retry-After: Wed, 21 Oct 2026 07:28:00 GMT' \\",
      "      -H 'RateLimit: \"default\";r=0;t=30' --now 2026-10-21T07:27:00Z",
      "  sluice explain --status 503 --method POST --class idempotent_write --attempt 2 --waited 12.5",
      "  sluice explain --failure read_timeout --method POST --class uncertain_write",
      "  sluice explain --config examples/sluice.yaml --provider billing-api --path /v1/transfers \\",
      "      --method POST --status 429 -H 'Retry-After: 10' --json",
      "",
      "Exit status: 0 when explained, 2 for bad input (one line on stderr).",
    })
public final class ExplainCommand implements Callable<Integer> {
  private static final Pattern TOKEN = Pattern.compile("[!#$%&'*+.^_`|~0-9A-Za-z-]+");
  private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  @Spec CommandSpec spec;

  @Option(names = "--status", paramLabel = "CODE", description = "The response's HTTP status (100-599).")
  String status;

  @Option(names = "--failure", paramLabel = "KIND",
      description = "Instead of --status, a transport failure: connect_timeout, connect_failed, reset_before_send "
          + "(nothing sent) or read_timeout, reset_after_send, truncated_response (bytes had left).")
  String failure;

  @Option(names = {"-H", "--header"}, paramLabel = "'NAME: VALUE'", description = "A response header field; repeat for more.")
  List<String> headers = new ArrayList<>();

  @Option(names = "--body", paramLabel = "TEXT", description = "The response body, for provider quota-exhaustion rules.")
  String body = "";

  @Option(names = "--method", paramLabel = "METHOD", description = "The request method (default: ${DEFAULT-VALUE}).", defaultValue = "GET")
  String method;

  @Option(names = "--class", paramLabel = "NAME", description = "The request class (read, idempotent_write, uncertain_write, or one from --config).")
  String requestClass;

  @Option(names = "--config", paramLabel = "FILE", description = "A sluice.yaml to take classes, routes and provider settings from.")
  Path config;

  @Option(names = "--provider", paramLabel = "NAME", description = "The provider (from --config; otherwise only a label).")
  String provider;

  @Option(names = "--path", paramLabel = "PATH", description = "The request path, matched against the provider's routes (needs --config).")
  String path;

  @Option(names = "--attempt", paramLabel = "N", defaultValue = "1",
      description = "Which attempt this response answers (1 = the first send; default 1). The retry it may lead to is retry n = N.")
  int attempt;

  @Option(names = "--waited", paramLabel = "SECONDS", defaultValue = "0", description = "Seconds this action has already waited (default 0).")
  String waited;

  @Option(names = "--deadline", paramLabel = "RFC3339", description = "The task's deadline, if it has one.")
  String deadline;

  @Option(names = "--now", paramLabel = "RFC3339", description = "When the response arrived (default: the current time).")
  String now;

  @Option(names = "--json", description = "Print one JSON object instead of text.")
  boolean json;

  @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help and exit.")
  boolean help;

  @Override
  public Integer call() throws JsonProcessingException {
    Inputs in = inputs();
    Instant at = in.now;

    RetryAfterPolicy retryAfterPolicy = in.policy.map(Policy::retryAfter).orElse(RetryAfterPolicy.defaults());
    Backoff backoff = in.policy.map(Policy::backoff).orElse(Backoff.SEED_DEFAULT);
    RateLimitDialect dialect = in.provider.map(Provider::rateLimitHeaders).orElse(RateLimitDialect.AUTO);
    List<QuotaExhaustedMatcher> quotaRules = in.provider.map(Provider::quotaExhausted).orElse(List.of());

    Headers h = in.headers;
    Classification classification = new Classifier(quotaRules).classify(in.result);
    RateLimitReading rateLimits = RateLimitReader.standard().read(h, at, dialect);
    ServerDelayReading retryAfter = ServerDelayReading.read(h, at, retryAfterPolicy);
    List<HeaderNote> notes = new ArrayList<>(retryAfter.notes());
    notes.addAll(rateLimits.notes());
    Optional<ServerDelay> serverDelay = ServerDelay.from(retryAfter, rateLimits, classification.verdict(), at, retryAfterPolicy, notes);

    RequestClass cls = in.requestClass;
    boolean write = !Route.isRead(in.method);
    RetryContext ctx = new RetryContext(cls.name(), cls.maxAttempts(), cls.maxWait(), new HashSet<>(cls.retryStatuses()), write,
        write && in.idempotencyKeySent, in.lookupAvailable, attempt, in.waited, in.deadline, at);
    // explain reports the interval, not one draw: any fixed source gives the same range.
    RetryDecision decision = new RetryPlanner(backoff).decide(classification, ctx, serverDelay, RandomGenerator.of("L64X128MixRandom"));

    String providerName = in.provider.map(Provider::id).orElse(provider == null ? "-" : provider);
    String scopeName = in.provider.map(Provider::scope).orElse(provider == null ? "-" : Provider.defaultScope(provider));
    ScopeRecord before = new ScopeRecord(providerName, scopeName, cls.name(), Optional.empty(), OptionalLong.empty(), OptionalLong.empty(), "none");
    Optional<ScopeRecord> scope = ScopeUpdate.after(classification, serverDelay, rateLimits, at, retryAfterPolicy)
        .map(u -> u.applyTo(before, cls.name()));

    Map<String, Object> out = report(classification, decision, scope, notes, rateLimits, cls, at, in);
    PrintWriter w = spec.commandLine().getOut();
    if (json) {
      w.println(JSON.writeValueAsString(out));
    } else {
      printText(w, classification, decision, scope, notes, rateLimits, in);
    }
    w.flush();
    return 0;
  }

  private Map<String, Object> report(Classification c, RetryDecision d, Optional<ScopeRecord> scope, List<HeaderNote> notes,
      RateLimitReading rateLimits, RequestClass cls, Instant at, Inputs in) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("verdict", c.verdict().code());
    m.put("status", c.status().isPresent() ? c.status().getAsInt() : null);
    m.put("retry_allowed", d.retryAllowed());
    m.put("action", d.action().code());
    m.put("outcome", d.outcome().orElse(null));
    m.put("reason", d.reason());
    m.put("delay_seconds", d.range().map(r -> {
      Map<String, Object> range = new LinkedHashMap<>();
      range.put("min", seconds(r.min()));
      range.put("max", seconds(r.max()));
      return range;
    }).orElse(null));
    m.put("delay_source", d.delaySource().map(s -> s.code()).orElse(null));
    m.put("due_at", d.range().map(r -> {
      Map<String, Object> due = new LinkedHashMap<>();
      due.put("earliest", ScopeJson.rfc3339(at.plus(r.min())));
      due.put("latest", ScopeJson.rfc3339(at.plus(r.max())));
      return due;
    }).orElse(null));
    m.put("scope_update", scope.map(ScopeJson::of).orElse(null));
    m.put("flags", List.copyOf(new LinkedHashSet<>(notes.stream().map(n -> n.flag().code()).toList())));
    m.put("notes", notes.stream().map(n -> Map.of("flag", n.flag().code(), "header", n.header(), "detail", n.detail())).toList());
    m.put("rate_limits", rateLimits.observations().stream().map(ExplainCommand::observation).toList());
    m.put("request_class", cls.name());
    m.put("method", in.method);
    m.put("attempt", attempt);
    m.put("waited_seconds", seconds(in.waited));
    m.put("request_sent", c.verdict().requestSent());
    m.put("response_received", c.verdict().responseReceived());
    m.put("next_safe_action", d.nextSafeAction());
    m.put("now", ScopeJson.rfc3339(at));
    return m;
  }

  private static Map<String, Object> observation(RateLimitObservation o) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("dialect", o.dialect().configName());
    m.put("unit", o.unit().code());
    m.put("partition", o.partition().orElse(null));
    m.put("limit", o.limit().isPresent() ? o.limit().getAsLong() : null);
    m.put("remaining", o.remaining().isPresent() ? o.remaining().getAsLong() : null);
    m.put("window_seconds", o.window().map(ExplainCommand::seconds).orElse(null));
    m.put("reset_at", o.resetAt().map(ScopeJson::rfc3339).orElse(null));
    m.put("source", o.sourceHeader());
    return m;
  }

  private void printText(PrintWriter w, Classification c, RetryDecision d, Optional<ScopeRecord> scope, List<HeaderNote> notes,
      RateLimitReading rateLimits, Inputs in) {
    w.printf("verdict       %s (%s)%n", c.verdict().code(), c.reason());
    if (d.retryAllowed()) {
      w.printf("retry         allowed: %s%n", d.reason());
      DelayRange r = d.range().orElseThrow();
      String source = d.delaySource().orElseThrow().code();
      if (r.exact()) {
        w.printf("delay         exactly %s s (%s)%n", seconds(r.min()).toPlainString(), source);
        w.printf("due           %s%n", ScopeJson.rfc3339(in.now.plus(r.min())));
      } else {
        w.printf("delay         between %s and %s s (%s; full jitter)%n", seconds(r.min()).toPlainString(), seconds(r.max()).toPlainString(), source);
        w.printf("due           between %s and %s%n", ScopeJson.rfc3339(in.now.plus(r.min())), ScopeJson.rfc3339(in.now.plus(r.max())));
      }
    } else {
      w.printf("retry         not allowed: %s -> %s%n", d.action().code(), d.outcome().orElseThrow());
      w.printf("why           %s%n", d.reason());
    }
    w.printf("sent/received request sent: %s, response received: %s%n", yesNo(c.verdict().requestSent()), yesNo(c.verdict().responseReceived()));
    if (scope.isPresent()) {
      try {
        w.printf("scope update  %s%n", new ObjectMapper().writeValueAsString(ScopeJson.of(scope.get())));
      } catch (JsonProcessingException e) {
        throw new IllegalStateException(e);
      }
    } else {
      w.printf("scope update  none (this response says nothing about the shared scope)%n");
    }
    for (RateLimitObservation o : rateLimits.observations()) {
      w.printf("rate limit    %s %s%s: remaining %s of %s, resets %s%n", o.dialect().configName(), o.unit().code(),
          o.partition().map(p -> " [" + p + "]").orElse(""),
          o.remaining().isPresent() ? o.remaining().getAsLong() : "?", o.limit().isPresent() ? o.limit().getAsLong() : "?",
          o.resetAt().map(ScopeJson::rfc3339).orElse("?"));
    }
    if (notes.isEmpty()) {
      w.printf("flags         none%n");
    }
    for (HeaderNote n : notes) {
      w.printf("flag          %s%n", n);
    }
    w.printf("next          %s%n", d.nextSafeAction());
  }

  private static String yesNo(boolean b) {
    return b ? "yes" : "no";
  }

  static BigDecimal seconds(Duration d) {
    BigDecimal s = BigDecimal.valueOf(d.toNanos(), 9).stripTrailingZeros();
    return s.scale() < 0 ? s.setScale(0) : s; // 60, not 6E+1
  }

  /** The validated command line. */
  private record Inputs(AttemptResult result, Headers headers, String method, Instant now, Duration waited, Optional<Instant> deadline,
      RequestClass requestClass, Optional<Policy> policy, Optional<Provider> provider, boolean idempotencyKeySent, boolean lookupAvailable) {}

  private Inputs inputs() {
    if ((status == null) == (failure == null)) {
      throw new CliErrors.UserError("give exactly one of --status CODE or --failure KIND");
    }
    AttemptResult result;
    Headers h = parseHeaders();
    if (status != null) {
      int code;
      try {
        code = Integer.parseInt(status.trim());
      } catch (NumberFormatException e) {
        throw new CliErrors.UserError("--status: expected an HTTP status code 100-599, got '" + status + "'");
      }
      if (code < 100 || code > 599) {
        throw new CliErrors.UserError("--status: expected an HTTP status code 100-599, got " + code);
      }
      result = new AttemptResult.Response(code, h, body);
    } else {
      TransportFailure kind;
      try {
        kind = TransportFailure.valueOf(failure.trim().toUpperCase(Locale.ROOT).replace('-', '_'));
      } catch (IllegalArgumentException e) {
        throw new CliErrors.UserError("--failure: expected one of connect_timeout, connect_failed, reset_before_send, read_timeout, "
            + "reset_after_send, truncated_response; got '" + failure + "'");
      }
      result = new AttemptResult.Failure(kind);
    }
    String m = method.trim().toUpperCase(Locale.ROOT);
    if (!Route.isMethod(m)) {
      throw new CliErrors.UserError("--method: expected an HTTP method such as GET or POST, got '" + method + "'");
    }
    if (attempt < 1) {
      throw new CliErrors.UserError("--attempt: expected 1 or more (1 = the first send), got " + attempt);
    }
    Duration waitedFor = parseSeconds("--waited", waited);
    Instant at = now == null ? Instant.now() : parseInstant("--now", now);
    Optional<Instant> dl = deadline == null ? Optional.empty() : Optional.of(parseInstant("--deadline", deadline));

    Optional<Policy> policy = Optional.empty();
    Optional<Provider> prov = Optional.empty();
    RequestClass cls;
    boolean keySent;
    boolean lookup = false;
    if (config != null) {
      policy = Optional.of(loadPolicy(config));
      if (provider == null || path == null) {
        throw new CliErrors.UserError("--config needs --provider NAME and --path PATH to pick the route");
      }
      Policy p = policy.get();
      prov = Optional.of(p.provider(provider).orElseThrow(() -> new CliErrors.UserError(
          "--provider: '" + provider + "' is not in " + config + "; it has " + String.join(", ", p.providers().keySet()))));
      RouteMatch match;
      try {
        match = prov.get().classify(m, path);
      } catch (IllegalArgumentException e) {
        throw new CliErrors.UserError("--path: " + e.getMessage());
      }
      cls = requestClass != null ? classFrom(p.requestClasses(), requestClass) : p.requestClass(match);
      keySent = prov.get().supportsIdempotency();
      lookup = match.route().lookup().isPresent();
    } else {
      if (path != null) {
        throw new CliErrors.UserError("--path needs --config FILE (the routes live there)");
      }
      Map<String, RequestClass> seed = RequestClass.seedDefaults();
      cls = classFrom(seed, requestClass != null ? requestClass : Route.isRead(m) ? RequestClass.READ : RequestClass.UNCERTAIN_WRITE);
      keySent = cls.name().equals(RequestClass.IDEMPOTENT_WRITE);
    }
    return new Inputs(result, h, m, at, waitedFor, dl, cls, policy, prov, keySent, lookup);
  }

  private static RequestClass classFrom(Map<String, RequestClass> classes, String name) {
    RequestClass c = classes.get(name);
    if (c == null) {
      throw new CliErrors.UserError("--class: unknown request class '" + name + "'; known: " + String.join(", ", classes.keySet()));
    }
    return c;
  }

  private static Policy loadPolicy(Path file) {
    if (!Files.isRegularFile(file)) {
      throw new CliErrors.UserError("--config: no such file: " + file);
    }
    try {
      return PolicyLoader.load(file);
    } catch (PolicyException e) {
      throw new CliErrors.UserError("--config: " + file + " is not valid:" + System.lineSeparator() + e.getMessage());
    }
  }

  private Headers parseHeaders() {
    Headers.Builder b = Headers.builder();
    for (String line : headers) {
      int colon = line.indexOf(':');
      if (colon <= 0) {
        throw new CliErrors.UserError("-H: expected 'Name: value', got '" + line + "'");
      }
      String name = line.substring(0, colon).trim();
      if (!TOKEN.matcher(name).matches()) {
        throw new CliErrors.UserError("-H: '" + name + "' is not a valid header field name");
      }
      String value = line.substring(colon + 1).strip();
      if (value.chars().anyMatch(ch -> ch == '\r' || ch == '\n' || ch == 0)) {
        throw new CliErrors.UserError("-H: the value of " + name + " contains a line break or NUL");
      }
      b.add(name, value);
    }
    return b.build();
  }

  private static Duration parseSeconds(String option, String text) {
    try {
      BigDecimal s = new BigDecimal(text.trim());
      if (s.signum() < 0) {
        throw new CliErrors.UserError(option + ": expected seconds >= 0, got " + text);
      }
      return Duration.ofNanos(s.movePointRight(9).longValueExact());
    } catch (NumberFormatException | ArithmeticException e) {
      throw new CliErrors.UserError(option + ": expected a number of seconds such as 12.5, got '" + text + "'");
    }
  }

  private static Instant parseInstant(String option, String text) {
    try {
      return java.time.OffsetDateTime.parse(text.trim()).toInstant();
    } catch (DateTimeParseException e) {
      throw new CliErrors.UserError(option + ": expected an RFC 3339 time such as 2026-10-21T07:27:00Z, got '" + text + "'");
    }
  }
}
