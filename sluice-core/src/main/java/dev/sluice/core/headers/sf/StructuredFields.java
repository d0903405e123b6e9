package dev.sluice.core.headers.sf;

import dev.sluice.core.headers.sf.internal.Parser;
import dev.sluice.core.headers.sf.internal.Serializer;

/**
 * Parses and serializes HTTP Structured Field Values exactly as RFC 9651 §4 specifies.
 *
 * <p>Parsing takes one field value; when a field arrived on several lines, join them with
 * {@code ", "} first (RFC 9651 §4.2 step 1, e.g. {@code Headers.combined(name)}). Leading and
 * trailing spaces are discarded; any other deviation fails the whole field with a
 * {@link StructuredFieldException} and never with another exception. Duplicate dictionary keys
 * and parameter keys keep their first position with their last value.
 *
 * <p>Serialization produces the canonical form. It cannot fail: the value types refuse on
 * construction anything RFC 9651 §4.1 would refuse to serialize. An empty List or Dictionary
 * serializes to {@code ""}, meaning the field should be omitted.
 */
public final class StructuredFields {
  private StructuredFields() {}

  /** Parses a List field (RFC 9651 §4.2.1). */
  public static SfList parseList(String fieldValue) throws StructuredFieldException {
    return Parser.parseList(fieldValue);
  }

  /** Parses a Dictionary field (RFC 9651 §4.2.2). */
  public static SfDictionary parseDictionary(String fieldValue) throws StructuredFieldException {
    return Parser.parseDictionary(fieldValue);
  }

  /** Parses an Item field (RFC 9651 §4.2.3). */
  public static Item parseItem(String fieldValue) throws StructuredFieldException {
    return Parser.parseItem(fieldValue);
  }

  /** The canonical serialization of a List; {@code ""} when empty. */
  public static String serialize(SfList list) {
    return Serializer.list(list);
  }

  /** The canonical serialization of a Dictionary; {@code ""} when empty. */
  public static String serialize(SfDictionary dictionary) {
    return Serializer.dictionary(dictionary);
  }

  /** The canonical serialization of an Item. */
  public static String serialize(Item item) {
    return Serializer.item(item);
  }
}
