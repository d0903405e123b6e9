package dev.sluice.core.headers;

import dev.sluice.core.http.Headers;
import java.time.Instant;
import java.util.List;

/**
 * Reads one {@link RateLimitDialect}'s fields from a response. Implementations never throw on
 * malformed input: they skip what they cannot read and add a {@link HeaderFlag#MALFORMED_HEADER_IGNORED}
 * note instead.
 */
public interface RateLimitDialectReader {

  /** The dialect this reader understands. */
  RateLimitDialect dialect();

  /** True when any field of this dialect is present (used by auto-detection). */
  boolean present(Headers headers);

  /**
   * The observations found, possibly none.
   *
   * @param headers the response's header fields
   * @param now the instant the response was received, to turn relative resets into instants
   * @param notes where to add flags raised while reading
   */
  List<RateLimitObservation> read(Headers headers, Instant now, List<HeaderNote> notes);
}
