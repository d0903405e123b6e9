package dev.sluice.core.headers;

import dev.sluice.core.headers.internal.FieldText;
import dev.sluice.core.http.Headers;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * The delay a response asks for, from {@code Retry-After} or OpenAI's {@code retry-after-ms}, and
 * which of the two it came from.
 *
 * <p>Choice: when both fields are understood, the <em>longer</em> delay wins (on a tie, {@code
 * Retry-After}, the standard field). OpenAI sends both; {@code retry-after-ms} is more precise,
 * but after the policy's bounds the two rarely differ, and when they do, honouring the longer one
 * is the rule Sluice applies everywhere (a server-given delay wins when longer; DESIGN.md §3 rule
 * 5). A field sent on several lines with different values is read line by line, the longest
 * understood delay is kept and {@link HeaderFlag#CONFLICTING_HEADERS} is noted. When a field is
 * malformed the other one still counts. Notes of both fields are kept, whichever wins.
 *
 * <p>Either {@code delay}, {@code source} and {@code retryAt} are all present, with {@code delay}
 * within the policy's {@code [minimumDelay, cap]}, or all are empty (no usable delay was given).
 *
 * @param delay how long to wait from {@code now}
 * @param source the field the delay came from
 * @param retryAt {@code now + delay}
 * @param notes every note raised reading either field
 */
public record ServerDelayReading(Optional<Duration> delay, Optional<Source> source, Optional<Instant> retryAt, List<HeaderNote> notes) {

  /** The field a server-given delay came from. */
  public enum Source {
    /** {@code Retry-After} (RFC 9110 §10.2.3). */
    RETRY_AFTER("retry-after"),
    /** {@code retry-after-ms} (OpenAI). */
    RETRY_AFTER_MS("retry-after-ms");

    private final String code;

    Source(String code) {
      this.code = code;
    }

    /** The stable name used in JSON ({@code delay_source}) and messages. */
    public String code() {
      return code;
    }
  }

  public ServerDelayReading {
    Objects.requireNonNull(delay, "delay");
    Objects.requireNonNull(source, "source");
    Objects.requireNonNull(retryAt, "retryAt");
    notes = List.copyOf(notes);
    if (delay.isPresent() != source.isPresent() || delay.isPresent() != retryAt.isPresent()) {
      throw new IllegalArgumentException("delay, source and retryAt are present together or not at all");
    }
  }

  /** True when the response gave a usable delay. */
  public boolean isPresent() {
    return delay.isPresent();
  }

  /**
   * Reads the server-given delay of a response received at {@code now}, bounded by {@code policy}.
   * Never throws on any header content.
   */
  public static ServerDelayReading read(Headers headers, Instant now, RetryAfterPolicy policy) {
    Objects.requireNonNull(headers, "headers");
    Objects.requireNonNull(now, "now");
    Objects.requireNonNull(policy, "policy");
    List<HeaderNote> notes = new ArrayList<>();
    Optional<RetryAfterResult> retryAfter = longest(headers, RetryAfter.RETRY_AFTER, notes, v -> RetryAfter.parse(v, now, policy));
    Optional<RetryAfterResult> retryAfterMs = longest(headers, RetryAfter.RETRY_AFTER_MS, notes, v -> RetryAfter.parseMillis(v, now, policy));
    Optional<RetryAfterResult> winner;
    Source source;
    if (retryAfterMs.isPresent()
        && (retryAfter.isEmpty() || retryAfterMs.get().delay().orElseThrow().compareTo(retryAfter.get().delay().orElseThrow()) > 0)) {
      winner = retryAfterMs;
      source = Source.RETRY_AFTER_MS;
    } else {
      winner = retryAfter;
      source = Source.RETRY_AFTER;
    }
    if (winner.isEmpty()) {
      return new ServerDelayReading(Optional.empty(), Optional.empty(), Optional.empty(), notes);
    }
    return new ServerDelayReading(winner.get().delay(), Optional.of(source), winner.get().retryAt(), notes);
  }

  /** The longest understood delay among the distinct lines of {@code name}; every line's notes are kept. */
  private static Optional<RetryAfterResult> longest(
      Headers headers, String name, List<HeaderNote> notes, Function<String, RetryAfterResult> parser) {
    Set<String> lines = new LinkedHashSet<>();
    for (String line : headers.all(name)) {
      lines.add(FieldText.trimOws(line));
    }
    Optional<RetryAfterResult> best = Optional.empty();
    for (String line : lines) {
      RetryAfterResult r = parser.apply(line);
      notes.addAll(r.notes());
      if (r.isPresent() && (best.isEmpty() || r.delay().orElseThrow().compareTo(best.get().delay().orElseThrow()) > 0)) {
        best = Optional.of(r);
      }
    }
    if (lines.size() > 1) {
      notes.add(new HeaderNote(HeaderFlag.CONFLICTING_HEADERS, name,
          lines.size() + " different values on separate lines; "
              + (best.isPresent() ? "keeping the longest delay, " + best.get().delay().orElseThrow() : "none was understood")));
    }
    return best;
  }
}
