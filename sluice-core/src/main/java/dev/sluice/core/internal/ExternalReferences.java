package dev.sluice.core.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Fills a route's {@code external_reference} body field (create-and-look-up, DESIGN.md §3 rule 7):
 * when the body is a JSON object, the field keeps the caller's string value if it has one, else
 * gets a fresh client reference. Any other body gets no reference (and so cannot be looked up by
 * one). Never throws on the body's content.
 */
public final class ExternalReferences {
  private static final ObjectMapper JSON = new ObjectMapper();

  private ExternalReferences() {}

  /** The body without {@code field} when it is a JSON object holding it; otherwise unchanged. */
  public static byte[] without(byte[] body, String field) {
    try {
      JsonNode root = JSON.readTree(body);
      if (root instanceof ObjectNode obj && obj.has(field)) {
        obj.remove(field);
        return JSON.writeValueAsString(obj).getBytes(StandardCharsets.UTF_8);
      }
    } catch (java.io.IOException | RuntimeException e) {
      // not a JSON object: nothing to remove
    }
    return body.clone();
  }

  /** The body to send and the reference it carries; empty when the body is not a JSON object. */
  public static Optional<Filled> fill(byte[] body, String field, Supplier<String> fresh) {
    JsonNode root;
    try {
      root = JSON.readTree(body);
    } catch (java.io.IOException | RuntimeException e) {
      return Optional.empty();
    }
    if (!(root instanceof ObjectNode obj)) {
      return Optional.empty();
    }
    JsonNode existing = obj.get(field);
    if (existing != null && existing.isTextual() && !existing.asText().isEmpty() && existing.asText().length() <= 255
        && existing.asText().chars().noneMatch(c -> c < 0x20 || c == 0x7f)) {
      return Optional.of(new Filled(body.clone(), existing.asText()));
    }
    String ref = fresh.get();
    obj.put(field, ref);
    try {
      return Optional.of(new Filled(JSON.writeValueAsString(obj).getBytes(StandardCharsets.UTF_8), ref));
    } catch (java.io.IOException e) {
      return Optional.empty();
    }
  }

  /** @param body the bytes every attempt sends @param reference the value of the field */
  public record Filled(byte[] body, String reference) {}
}
