package dev.sluice.core.headers.sf;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Turns the conformance suite's JSON encoding of an {@code expected} value into our model. Any
 * value our types refuse to build (e.g. a 16-digit integer) throws IllegalArgumentException,
 * which the serialisation tests rely on.
 */
final class VectorJson {
  private VectorJson() {}

  static Object topLevel(String headerType, JsonNode expected) {
    return switch (headerType) {
      case "item" -> item(expected);
      case "list" -> list(expected);
      case "dictionary" -> dictionary(expected);
      default -> throw new IllegalStateException("unknown header_type " + headerType);
    };
  }

  static SfList list(JsonNode node) {
    List<Member> members = new ArrayList<>();
    node.forEach(m -> members.add(member(m)));
    return new SfList(members);
  }

  static SfDictionary dictionary(JsonNode node) {
    Map<String, Member> map = new LinkedHashMap<>();
    node.forEach(entry -> map.put(entry.get(0).asText(), member(entry.get(1))));
    return SfDictionary.of(map);
  }

  /** An inner list is {@code [[items], params]}; an item is {@code [bare, params]}. */
  static Member member(JsonNode node) {
    if (node.get(0).isArray()) {
      List<Item> items = new ArrayList<>();
      node.get(0).forEach(i -> items.add(item(i)));
      return new InnerList(items, parameters(node.get(1)));
    }
    return item(node);
  }

  static Item item(JsonNode node) {
    return new Item(bare(node.get(0)), parameters(node.get(1)));
  }

  static Parameters parameters(JsonNode node) {
    Map<String, BareItem> map = new LinkedHashMap<>();
    node.forEach(entry -> map.put(entry.get(0).asText(), bare(entry.get(1))));
    return Parameters.of(map);
  }

  static BareItem bare(JsonNode node) {
    if (node.isIntegralNumber()) {
      return new SfInteger(node.longValue());
    }
    if (node.isNumber()) {
      return new SfDecimal(node.decimalValue());
    }
    if (node.isTextual()) {
      return new SfString(node.textValue());
    }
    if (node.isBoolean()) {
      return SfBoolean.of(node.booleanValue());
    }
    if (node.isObject()) {
      JsonNode value = node.get("value");
      return switch (node.get("__type").asText()) {
        case "token" -> new SfToken(value.textValue());
        case "binary" -> new SfBinary(base32(value.textValue()));
        case "date" -> new SfDate(value.longValue());
        case "displaystring" -> new SfDisplayString(value.textValue());
        default -> throw new IllegalStateException("unknown __type in " + node);
      };
    }
    throw new IllegalStateException("cannot map bare item " + node);
  }

  /** RFC 4648 §6 base32 (upper-case alphabet, '=' padding), which the JDK does not provide. */
  static byte[] base32(String text) {
    String alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    int buffer = 0;
    int bits = 0;
    for (char c : text.toUpperCase(Locale.ROOT).toCharArray()) {
      if (c == '=') {
        break;
      }
      int v = alphabet.indexOf(c);
      if (v < 0) {
        throw new IllegalStateException("bad base32 in vector: " + text);
      }
      buffer = (buffer << 5) | v;
      bits += 5;
      if (bits >= 8) {
        out.write((buffer >> (bits - 8)) & 0xff);
        bits -= 8;
      }
    }
    return out.toByteArray();
  }
}
