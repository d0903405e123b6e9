package dev.sluice.core.headers;

import dev.sluice.core.http.Headers;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Reads a response's rate-limit state in every dialect it knows, with the dialect readers given to
 * it (so that readers written separately plug in without changes here).
 *
 * <p>{@link RateLimitDialect#AUTO} reads every dialect whose fields are present, in the order the
 * readers were given; a pinned dialect reads that dialect only, ignoring the others' fields. Never
 * throws on any header content: readers do not, and should one fail all the same, its fields are
 * ignored and a {@link HeaderFlag#MALFORMED_HEADER_IGNORED} note names the dialect, so a reader
 * bug cannot abort a decision. Thread-safe and immutable.
 */
public final class RateLimitReader {
  private final List<RateLimitDialectReader> readers;
  private final Map<RateLimitDialect, RateLimitDialectReader> byDialect;

  private RateLimitReader(List<RateLimitDialectReader> readers) {
    this.readers = readers;
    Map<RateLimitDialect, RateLimitDialectReader> map = new EnumMap<>(RateLimitDialect.class);
    for (RateLimitDialectReader r : readers) {
      RateLimitDialect d = Objects.requireNonNull(r.dialect(), () -> "dialect of reader " + r.getClass().getName());
      if (d == RateLimitDialect.AUTO) {
        throw new IllegalArgumentException("reader " + r.getClass().getName() + " claims dialect AUTO; a reader reads one concrete dialect");
      }
      if (map.putIfAbsent(d, r) != null) {
        throw new IllegalArgumentException("two readers for dialect " + d.configName() + ": "
            + map.get(d).getClass().getName() + " and " + r.getClass().getName());
      }
    }
    this.byDialect = map;
  }

  /**
   * A reader over exactly {@code readers}, tried in this order under {@link RateLimitDialect#AUTO}.
   *
   * @throws IllegalArgumentException when two readers share a dialect or one claims {@code AUTO}
   */
  public static RateLimitReader of(List<? extends RateLimitDialectReader> readers) {
    Objects.requireNonNull(readers, "readers");
    return new RateLimitReader(List.copyOf(readers));
  }

  /** Every dialect reader Sluice ships, standard fields first. */
  public static RateLimitReader standard() {
    List<RateLimitDialectReader> readers = new ArrayList<>();
    readers.add(new IetfRateLimitReader());
    readers.add(new LegacyRateLimitReader());
    readers.add(new OpenAiRateLimitReader());
    readers.add(new AnthropicRateLimitReader());
    readers.add(new GitHubRateLimitReader());
    return of(readers);
  }

  /** The dialects this reader can read, so configuration can refuse a pin it cannot honour. */
  public Set<RateLimitDialect> dialects() {
    return Set.copyOf(byDialect.keySet());
  }

  /** True when {@code dialect} is {@code AUTO} or has a reader here. */
  public boolean supports(RateLimitDialect dialect) {
    return dialect == RateLimitDialect.AUTO || byDialect.containsKey(dialect);
  }

  /** {@link #read(Headers, Instant, RateLimitDialect)} with {@link RateLimitDialect#AUTO}. */
  public RateLimitReading read(Headers headers, Instant now) {
    return read(headers, now, RateLimitDialect.AUTO);
  }

  /**
   * Reads {@code headers} as received at {@code now}.
   *
   * @param pinned {@link RateLimitDialect#AUTO} to read every dialect present, or the one dialect
   *     a provider is pinned to
   * @throws IllegalArgumentException when {@code pinned} has no reader here: a configuration
   *     mistake, to be caught at start-up with {@link #supports}
   */
  public RateLimitReading read(Headers headers, Instant now, RateLimitDialect pinned) {
    Objects.requireNonNull(headers, "headers");
    Objects.requireNonNull(now, "now");
    Objects.requireNonNull(pinned, "pinned");
    List<RateLimitDialectReader> chosen;
    if (pinned == RateLimitDialect.AUTO) {
      chosen = readers;
    } else {
      RateLimitDialectReader r = byDialect.get(pinned);
      if (r == null) {
        throw new IllegalArgumentException("no reader for rate-limit dialect " + pinned.configName() + "; this reader knows " + dialectNames());
      }
      chosen = List.of(r);
    }
    List<RateLimitObservation> observations = new ArrayList<>();
    List<HeaderNote> notes = new ArrayList<>();
    for (RateLimitDialectReader r : chosen) {
      List<HeaderNote> readerNotes = new ArrayList<>();
      try {
        if (r.present(headers)) {
          List<RateLimitObservation> read = r.read(headers, now, readerNotes);
          observations.addAll(read);
        }
        notes.addAll(readerNotes);
      } catch (RuntimeException e) {
        // Header content must never abort a decision: drop this dialect's reading, keep the rest.
        notes.add(new HeaderNote(HeaderFlag.MALFORMED_HEADER_IGNORED, r.dialect().configName(),
            "the " + r.dialect().configName() + " reader failed (" + e.getClass().getSimpleName() + "); its fields were ignored"));
      }
    }
    return observations.isEmpty() && notes.isEmpty() ? RateLimitReading.empty() : new RateLimitReading(observations, notes);
  }

  private String dialectNames() {
    return byDialect.keySet().stream().map(RateLimitDialect::configName).toList().toString();
  }
}
