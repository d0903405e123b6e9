package dev.sluice.core.headers.internal;

import dev.sluice.core.headers.HeaderFlag;
import dev.sluice.core.headers.HeaderNote;
import dev.sluice.core.headers.RateLimitDialect;
import dev.sluice.core.headers.RateLimitObservation;
import dev.sluice.core.http.Headers;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.function.Function;

/**
 * Reads the singleton fields of the rate-limit dialects, noting what it must ignore.
 *
 * <p>Every method is total: a value that cannot be read is skipped and a {@link
 * HeaderFlag#MALFORMED_HEADER_IGNORED} note naming the field and the reason is added. A field sent
 * on several lines with different values is ignored too (RFC 9110 §5.5: such a singleton field is
 * invalid); identical repeats, which proxies produce, are read once.
 */
public final class DialectFields {
  private DialectFields() {}

  /** The trimmed value of a singleton field, when present and unambiguous. */
  public static Optional<String> single(Headers headers, String name, List<HeaderNote> notes) {
    List<String> lines = headers.all(name);
    if (lines.isEmpty()) {
      return Optional.empty();
    }
    Set<String> distinct = new LinkedHashSet<>();
    for (String line : lines) {
      distinct.add(FieldText.trimOws(line));
    }
    if (distinct.size() > 1) {
      notes.add(new HeaderNote(HeaderFlag.MALFORMED_HEADER_IGNORED, name,
          "sent " + distinct.size() + " different values on separate lines; a single value is expected"));
      return Optional.empty();
    }
    return Optional.of(distinct.iterator().next());
  }

  /** A non-negative integer field ({@code 1*DIGIT}). */
  public static OptionalLong count(Headers headers, String name, List<HeaderNote> notes) {
    Optional<Long> v = value(headers, name, notes, HeaderNumbers::nonNegativeInteger);
    return v.isPresent() ? OptionalLong.of(v.get()) : OptionalLong.empty();
  }

  /** A singleton field parsed by {@code parser}; refusals become notes. */
  public static <T> Optional<T> value(
      Headers headers, String name, List<HeaderNote> notes, Function<String, ValueParse<T>> parser) {
    Optional<String> text = single(headers, name, notes);
    if (text.isEmpty()) {
      return Optional.empty();
    }
    return switch (parser.apply(text.get())) {
      case ValueParse.Ok<T> ok -> Optional.of(ok.value());
      case ValueParse.Refused<T> r -> {
        malformed(notes, name, r.why(), text.get());
        yield Optional.empty();
      }
    };
  }

  /** A reset written as a duration relative to {@code now}. */
  public static Optional<Instant> resetAfter(
      Headers headers, String name, Instant now, List<HeaderNote> notes, Function<String, ValueParse<Duration>> parser) {
    return value(headers, name, notes, text -> switch (parser.apply(text)) {
      case ValueParse.Ok<Duration> ok -> {
        Instant at = InstantMath.plusSaturating(now, ok.value());
        yield at.equals(Instant.MAX) ? ValueParse.refused("reset out of range") : ValueParse.ok(at);
      }
      case ValueParse.Refused<Duration> r -> ValueParse.refused(r.why());
    });
  }

  /**
   * The observation of one {@code limit / remaining / reset} trio, as OpenAI and Anthropic send one
   * per kind: kind {@code requests} counts requests in the default pool, any other kind counts
   * tokens with the kind as partition. Empty when none of the three fields could be read.
   *
   * @param readReset reads the reset field of the given name (each dialect writes resets its way)
   */
  public static Optional<RateLimitObservation> perKind(RateLimitDialect dialect, String kind, Headers headers,
      String limitName, String remainingName, String resetName, Function<String, Optional<Instant>> readReset,
      List<HeaderNote> notes) {
    Sources sources = new Sources();
    OptionalLong limit = count(headers, limitName, notes);
    sources.used(limitName, limit.isPresent());
    OptionalLong remaining = count(headers, remainingName, notes);
    sources.used(remainingName, remaining.isPresent());
    Optional<Instant> resetAt = readReset.apply(resetName);
    sources.used(resetName, resetAt.isPresent());
    if (sources.isEmpty()) {
      return Optional.empty();
    }
    boolean requests = kind.equals("requests");
    return Optional.of(new RateLimitObservation(
        dialect,
        requests ? RateLimitObservation.Unit.REQUESTS : RateLimitObservation.Unit.TOKENS,
        requests ? Optional.empty() : Optional.of(kind),
        limit, remaining, Optional.empty(), resetAt, sources.toString()));
  }

  /** Adds a note that {@code name}'s value was ignored, and why. */
  public static void malformed(List<HeaderNote> notes, String name, String why, String value) {
    notes.add(new HeaderNote(HeaderFlag.MALFORMED_HEADER_IGNORED, name, why + " (got " + FieldText.shown(value) + ")"));
  }

  /** Collects the names of the fields an observation's values came from. */
  public static final class Sources {
    private final List<String> names = new ArrayList<>();

    /** Records {@code name} when {@code read} is true; returns {@code read}. */
    public boolean used(String name, boolean read) {
      if (read) {
        names.add(name);
      }
      return read;
    }

    public boolean isEmpty() {
      return names.isEmpty();
    }

    @Override
    public String toString() {
      return String.join(", ", names);
    }
  }
}
