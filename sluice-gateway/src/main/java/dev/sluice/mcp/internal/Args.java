package dev.sluice.mcp.internal;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Typed reads of a tool call's arguments (already checked against the input schema). */
final class Args {
  private final Map<String, Object> args;

  Args(Map<String, Object> args) {
    this.args = args == null ? Map.of() : args;
  }

  boolean has(String name) {
    return args.containsKey(name) && args.get(name) != null;
  }

  Object raw(String name) {
    return args.get(name);
  }

  String string(String name) {
    return optString(name).orElseThrow(() -> new ToolRefusal("invalid_arguments", "'" + name + "' is required"));
  }

  Optional<String> optString(String name) {
    Object v = args.get(name);
    if (v == null) {
      return Optional.empty();
    }
    if (!(v instanceof String s)) {
      throw new ToolRefusal("invalid_arguments", "'" + name + "' must be a string");
    }
    return Optional.of(s);
  }

  Optional<Double> optNumber(String name) {
    Object v = args.get(name);
    if (v == null) {
      return Optional.empty();
    }
    if (!(v instanceof Number n)) {
      throw new ToolRefusal("invalid_arguments", "'" + name + "' must be a number");
    }
    return Optional.of(n.doubleValue());
  }

  @SuppressWarnings("unchecked")
  Map<String, Object> optObject(String name) {
    Object v = args.get(name);
    if (v == null) {
      return Map.of();
    }
    if (!(v instanceof Map<?, ?> m)) {
      throw new ToolRefusal("invalid_arguments", "'" + name + "' must be an object");
    }
    return (Map<String, Object>) m;
  }

  static List<?> asList(Object v) {
    return v instanceof List<?> l ? l : List.of(v);
  }
}
