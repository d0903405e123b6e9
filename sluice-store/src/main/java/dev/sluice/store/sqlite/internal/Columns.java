package dev.sluice.store.sqlite.internal;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import dev.sluice.core.http.Headers;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * How values are written to and read from columns: instants and durations as integer microseconds
 * (the precision PostgreSQL keeps, so both stores round the same way), headers as a JSON array of
 * {@code [name, value]} pairs (multi-valued, ordered), optional values as NULL.
 */
public final class Columns {
  private static final ObjectMapper JSON = new ObjectMapper();

  private Columns() {}

  public static long micros(Instant t) {
    return Math.addExact(Math.multiplyExact(t.getEpochSecond(), 1_000_000L), t.getNano() / 1_000);
  }

  public static Instant instant(long micros) {
    return Instant.ofEpochSecond(Math.floorDiv(micros, 1_000_000L), Math.floorMod(micros, 1_000_000L) * 1_000L);
  }

  /** The instant as the journal will read it back: truncated to the microsecond. */
  public static Instant truncate(Instant t) {
    return instant(micros(t));
  }

  public static long micros(Duration d) {
    return Math.addExact(Math.multiplyExact(d.getSeconds(), 1_000_000L), d.getNano() / 1_000);
  }

  public static Duration duration(long micros) {
    return Duration.ofSeconds(Math.floorDiv(micros, 1_000_000L), Math.floorMod(micros, 1_000_000L) * 1_000L);
  }

  public static Optional<Instant> optionalInstant(ResultSet rs, String column) throws SQLException {
    long v = rs.getLong(column);
    return rs.wasNull() ? Optional.empty() : Optional.of(instant(v));
  }

  public static OptionalInt optionalInt(ResultSet rs, String column) throws SQLException {
    int v = rs.getInt(column);
    return rs.wasNull() ? OptionalInt.empty() : OptionalInt.of(v);
  }

  public static OptionalLong optionalLong(ResultSet rs, String column) throws SQLException {
    long v = rs.getLong(column);
    return rs.wasNull() ? OptionalLong.empty() : OptionalLong.of(v);
  }

  public static Optional<String> optionalText(ResultSet rs, String column) throws SQLException {
    return Optional.ofNullable(rs.getString(column));
  }

  public static void setInstant(PreparedStatement ps, int index, Optional<Instant> value) throws SQLException {
    if (value.isPresent()) {
      ps.setLong(index, micros(value.get()));
    } else {
      ps.setNull(index, Types.BIGINT);
    }
  }

  public static void setInt(PreparedStatement ps, int index, OptionalInt value) throws SQLException {
    if (value.isPresent()) {
      ps.setInt(index, value.getAsInt());
    } else {
      ps.setNull(index, Types.INTEGER);
    }
  }

  public static void setLong(PreparedStatement ps, int index, OptionalLong value) throws SQLException {
    if (value.isPresent()) {
      ps.setLong(index, value.getAsLong());
    } else {
      ps.setNull(index, Types.BIGINT);
    }
  }

  public static void setText(PreparedStatement ps, int index, Optional<String> value) throws SQLException {
    ps.setString(index, value.orElse(null));
  }

  public static String headersJson(Headers headers) {
    ArrayNode pairs = JSON.createArrayNode();
    for (String name : headers.names()) {
      for (String value : headers.all(name)) {
        pairs.addArray().add(name).add(value);
      }
    }
    try {
      return JSON.writeValueAsString(pairs);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("headers always serialize", e);
    }
  }

  public static Headers headers(String json) throws SQLException {
    try {
      Headers.Builder b = Headers.builder();
      for (JsonNode pair : JSON.readTree(json)) {
        b.add(pair.get(0).asText(), pair.get(1).asText());
      }
      return b.build();
    } catch (JsonProcessingException | RuntimeException e) {
      // Never echo the stored value: it may hold a header a caller should not have passed.
      throw new SQLException("a stored header list is not valid JSON [[name, value], ...]");
    }
  }

  public static String statuses(List<Integer> statuses) {
    StringBuilder b = new StringBuilder();
    for (Integer s : statuses) {
      b.append(b.isEmpty() ? "" : ",").append(s);
    }
    return b.toString();
  }

  public static List<Integer> statuses(String text) throws SQLException {
    List<Integer> out = new ArrayList<>();
    if (text.isEmpty()) {
      return out;
    }
    try {
      for (String part : text.split(",", -1)) {
        out.add(Integer.parseInt(part));
      }
    } catch (NumberFormatException e) {
      throw new SQLException("a stored retry_statuses list is not comma-separated integers: '" + text + "'");
    }
    return out;
  }
}
