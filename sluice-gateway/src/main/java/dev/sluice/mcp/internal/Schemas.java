package dev.sluice.mcp.internal;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Map;

/** The tools' JSON schemas, read from {@code dev/sluice/mcp/schemas/*.json} on the class path. */
public final class Schemas {
  private static final ObjectMapper JSON = new ObjectMapper();

  private Schemas() {}

  /** The schema {@code name} ({@code http_request.input}, {@code action.output}, ...) as a JSON object. */
  public static Map<String, Object> load(String name) {
    String resource = "/dev/sluice/mcp/schemas/" + name + ".json";
    try (InputStream in = Schemas.class.getResourceAsStream(resource)) {
      if (in == null) {
        throw new IllegalStateException("schema resource " + resource + " is missing from the jar");
      }
      return JSON.readValue(in, new TypeReference<Map<String, Object>>() {});
    } catch (IOException e) {
      throw new UncheckedIOException("schema resource " + resource + " is not valid JSON", e);
    }
  }
}
