package dev.sluice.core.policy;

import dev.sluice.core.policy.internal.Syntax;
import java.util.Objects;
import java.util.Optional;

/**
 * Where the provider's own id for an operation is found in its response ({@code operation_id}), so
 * a later reconciliation can ask about exactly that operation: a JSON pointer into the body, or a
 * response header (e.g. {@code Location}). Exactly one of the two.
 *
 * @param jsonPointer an RFC 6901 pointer such as {@code /id}
 * @param header a response header field name
 */
public record OperationIdSource(Optional<String> jsonPointer, Optional<String> header) {
  public OperationIdSource {
    Objects.requireNonNull(jsonPointer, "jsonPointer");
    Objects.requireNonNull(header, "header");
    if (jsonPointer.isPresent() == header.isPresent()) {
      throw new IllegalArgumentException("operation_id needs exactly one of json_pointer or header");
    }
    if (jsonPointer.isPresent() && !Syntax.isJsonPointer(jsonPointer.get())) {
      throw new IllegalArgumentException("operation_id.json_pointer must be an RFC 6901 pointer such as /id, got '" + jsonPointer.get() + "'");
    }
    if (header.isPresent() && !Syntax.isToken(header.get())) {
      throw new IllegalArgumentException("operation_id.header must be a header field name, got '" + header.get() + "'");
    }
  }

  /** The id is the value at this JSON pointer in the response body. */
  public static OperationIdSource jsonPointer(String pointer) {
    return new OperationIdSource(Optional.of(pointer), Optional.empty());
  }

  /** The id is the value of this response header field. */
  public static OperationIdSource header(String name) {
    return new OperationIdSource(Optional.empty(), Optional.of(name));
  }
}
