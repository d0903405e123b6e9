package dev.sluice.core.classify;

import dev.sluice.core.policy.QuotaExhaustedMatcher;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.MissingNode;
import dev.sluice.core.headers.RateLimitObservation;
import dev.sluice.core.headers.RateLimitReader;
import dev.sluice.core.http.Headers;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * Turns an {@link AttemptResult} into a {@link Classification}. Pure: no I/O, no clock, never
 * throws on odd responses (an unparseable body simply matches no quota rule).
 *
 * <p>The table, in order:
 *
 * <ol>
 *   <li>a configured {@link QuotaExhaustedMatcher} matching status and body → {@code quota_exhausted};
 *   <li>2xx and 304 → {@code success}; other 1xx/3xx → {@code redirect_refused} (Sluice never
 *       follows redirects);
 *   <li>429 → {@code rate_limited};
 *   <li>403 with a rate-limit remaining field at {@code 0} or with {@code Retry-After} →
 *       {@code rate_limited} (GitHub's primary and secondary limits); other 403 → {@code
 *       client_error};
 *   <li>409 → {@code conflict}; 408 → {@code unavailable} (the server gave up waiting for the
 *       request; retry eligibility still follows the request class); other 4xx → {@code
 *       client_error};
 *   <li>5xx → {@code unavailable};
 *   <li>transport failures → {@code timeout_before_send} / {@code reset_before_send} when no
 *       request byte left, else {@code outcome_unknown}.
 * </ol>
 */
public final class Classifier {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final RateLimitReader RATE_LIMITS = RateLimitReader.standard();

  private final List<QuotaExhaustedMatcher> quotaRules;

  /** A classifier that recognises the given provider quota-exhaustion rules (may be empty). */
  public Classifier(List<QuotaExhaustedMatcher> quotaRules) {
    this.quotaRules = List.copyOf(Objects.requireNonNull(quotaRules, "quotaRules"));
  }

  /** A classifier with no quota-exhaustion rules. */
  public static Classifier standard() {
    return new Classifier(List.of());
  }

  public Classification classify(AttemptResult result) {
    return switch (result) {
      case AttemptResult.Failure f -> classifyFailure(f.kind());
      case AttemptResult.Response r -> classifyResponse(r);
    };
  }

  private static Classification classifyFailure(TransportFailure kind) {
    return switch (kind) {
      case CONNECT_TIMEOUT -> Classification.failure(Verdict.TIMEOUT_BEFORE_SEND, "connect timed out; nothing was sent");
      case CONNECT_FAILED -> Classification.failure(Verdict.RESET_BEFORE_SEND, "connection failed; nothing was sent");
      case RESET_BEFORE_SEND -> Classification.failure(Verdict.RESET_BEFORE_SEND, "connection reset before the request was sent");
      case READ_TIMEOUT -> Classification.failure(Verdict.OUTCOME_UNKNOWN, "no response before the read timeout, after the request was sent");
      case RESET_AFTER_SEND -> Classification.failure(Verdict.OUTCOME_UNKNOWN, "connection reset after the request was sent, before a response");
      case TRUNCATED_RESPONSE -> Classification.failure(Verdict.OUTCOME_UNKNOWN, "the response was cut short after the request was sent");
    };
  }

  private Classification classifyResponse(AttemptResult.Response r) {
    int status = r.status();
    Optional<QuotaExhaustedMatcher> quota = matchQuota(r);
    if (quota.isPresent()) {
      QuotaExhaustedMatcher rule = quota.get();
      return new Classification(
          Verdict.QUOTA_EXHAUSTED,
          OptionalInt.of(status),
          rule.describe() + ": provider quota exhausted until the " + rule.reset().configName() + " reset",
          quota);
    }
    if (status == 304 || (status >= 200 && status < 300)) {
      return Classification.of(Verdict.SUCCESS, status, status + " " + StatusText.of(status));
    }
    if (status < 400) {
      return Classification.of(Verdict.REDIRECT_REFUSED, status, status + " " + StatusText.of(status) + ": Sluice does not follow redirects");
    }
    if (status == 429) {
      return Classification.of(Verdict.RATE_LIMITED, status, "429 Too Many Requests");
    }
    if (status == 403) {
      Optional<String> zero = remainingAtZero(r.headers());
      if (zero.isPresent()) {
        return Classification.of(Verdict.RATE_LIMITED, status, "403 with " + zero.get() + " remaining at 0 (GitHub-style rate limit)");
      }
      if (r.headers().contains("retry-after")) {
        return Classification.of(Verdict.RATE_LIMITED, status, "403 with Retry-After (GitHub-style secondary rate limit)");
      }
      return Classification.of(Verdict.CLIENT_ERROR, status, "403 Forbidden: a repeat cannot fix it");
    }
    if (status == 409) {
      return Classification.of(Verdict.CONFLICT, status, "409 Conflict: duplicate, version conflict or lock; resource-specific");
    }
    if (status == 408) {
      return Classification.of(Verdict.UNAVAILABLE, status, "408 Request Timeout: the provider gave up waiting for the request");
    }
    if (status < 500) {
      return Classification.of(Verdict.CLIENT_ERROR, status, status + " " + StatusText.of(status) + ": a repeat cannot fix it");
    }
    return Classification.of(Verdict.UNAVAILABLE, status, status + " " + StatusText.of(status));
  }

  /** The field of a request pool (any dialect) with nothing remaining, if one was sent. */
  private static Optional<String> remainingAtZero(Headers headers) {
    // Only "remaining" matters here, which no dialect computes from the clock; the epoch stands in
    // for "now" so that classification stays free of time.
    return RATE_LIMITS.read(headers, Instant.EPOCH).observations().stream()
        .filter(o -> o.unit() == RateLimitObservation.Unit.REQUESTS)
        .filter(o -> o.remaining().isPresent() && o.remaining().getAsLong() == 0)
        .map(RateLimitObservation::sourceHeader)
        .findFirst();
  }

  private Optional<QuotaExhaustedMatcher> matchQuota(AttemptResult.Response r) {
    if (quotaRules.isEmpty()) {
      return Optional.empty();
    }
    JsonNode[] body = {null}; // parsed once, and only when a rule's status matches
    java.util.function.Function<String, Optional<Object>> pointer = p -> {
      if (body[0] == null) {
        body[0] = parseJson(r.bodyPrefix());
      }
      return valueAt(body[0].at(p));
    };
    return quotaRules.stream().filter(rule -> rule.matches(r.status(), pointer)).findFirst();
  }

  private static Optional<Object> valueAt(JsonNode n) {
    if (n.isMissingNode() || n.isNull()) {
      return Optional.empty();
    }
    if (n.isNumber()) {
      return Optional.of(n.decimalValue());
    }
    if (n.isBoolean()) {
      return Optional.of(n.booleanValue());
    }
    if (n.isTextual()) {
      return Optional.of(n.textValue());
    }
    return Optional.of(n); // an object or array: only satisfies "exists"
  }

  private static JsonNode parseJson(byte[] body) {
    if (body.length == 0) {
      return MissingNode.getInstance();
    }
    try {
      JsonNode node = JSON.readTree(body);
      return node == null ? MissingNode.getInstance() : node;
    } catch (java.io.IOException e) { // includes JsonProcessingException: not JSON, no match
      return MissingNode.getInstance();
    }
  }

  /** Reason phrases for the statuses operators meet most; others print the number only. */
  static final class StatusText {
    private StatusText() {}

    static String of(int status) {
      return switch (status) {
        case 200 -> "OK";
        case 201 -> "Created";
        case 202 -> "Accepted";
        case 204 -> "No Content";
        case 301 -> "Moved Permanently";
        case 302 -> "Found";
        case 303 -> "See Other";
        case 304 -> "Not Modified";
        case 307 -> "Temporary Redirect";
        case 308 -> "Permanent Redirect";
        case 400 -> "Bad Request";
        case 401 -> "Unauthorized";
        case 403 -> "Forbidden";
        case 404 -> "Not Found";
        case 405 -> "Method Not Allowed";
        case 408 -> "Request Timeout";
        case 409 -> "Conflict";
        case 410 -> "Gone";
        case 413 -> "Content Too Large";
        case 415 -> "Unsupported Media Type";
        case 422 -> "Unprocessable Content";
        case 429 -> "Too Many Requests";
        case 500 -> "Internal Server Error";
        case 501 -> "Not Implemented";
        case 502 -> "Bad Gateway";
        case 503 -> "Service Unavailable";
        case 504 -> "Gateway Timeout";
        default -> "";
      };
    }
  }
}
