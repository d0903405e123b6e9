package dev.sluice.core.headers.sf.internal;

import static dev.sluice.core.headers.sf.internal.Grammar.isAlpha;
import static dev.sluice.core.headers.sf.internal.Grammar.isBase64Char;
import static dev.sluice.core.headers.sf.internal.Grammar.isDigit;
import static dev.sluice.core.headers.sf.internal.Grammar.isKeyRest;
import static dev.sluice.core.headers.sf.internal.Grammar.isLcAlpha;
import static dev.sluice.core.headers.sf.internal.Grammar.isTokenRest;

import dev.sluice.core.headers.sf.BareItem;
import dev.sluice.core.headers.sf.InnerList;
import dev.sluice.core.headers.sf.Item;
import dev.sluice.core.headers.sf.Member;
import dev.sluice.core.headers.sf.Parameters;
import dev.sluice.core.headers.sf.SfBinary;
import dev.sluice.core.headers.sf.SfBoolean;
import dev.sluice.core.headers.sf.SfDate;
import dev.sluice.core.headers.sf.SfDecimal;
import dev.sluice.core.headers.sf.SfDictionary;
import dev.sluice.core.headers.sf.SfDisplayString;
import dev.sluice.core.headers.sf.SfInteger;
import dev.sluice.core.headers.sf.SfList;
import dev.sluice.core.headers.sf.SfString;
import dev.sluice.core.headers.sf.SfToken;
import dev.sluice.core.headers.sf.StructuredFieldException;
import java.io.ByteArrayOutputStream;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The parsing algorithms of RFC 9651 §4.2, step by step, over one field value. One instance
 * parses one value; not thread-safe. Every failure is a {@link StructuredFieldException}.
 */
public final class Parser {
  private final String input;
  private int pos;

  private Parser(String input) {
    this.input = input;
  }

  public static SfList parseList(String input) throws StructuredFieldException {
    Parser p = start(input);
    SfList out = p.list();
    p.finish();
    return out;
  }

  public static SfDictionary parseDictionary(String input) throws StructuredFieldException {
    Parser p = start(input);
    SfDictionary out = p.dictionary();
    p.finish();
    return out;
  }

  public static Item parseItem(String input) throws StructuredFieldException {
    Parser p = start(input);
    Item out = p.item();
    p.finish();
    return out;
  }

  /** §4.2 steps 1-2: the value must be ASCII; leading SP is discarded. */
  private static Parser start(String input) throws StructuredFieldException {
    if (input == null) {
      throw new StructuredFieldException(0, "field value is null");
    }
    for (int i = 0; i < input.length(); i++) {
      if (input.charAt(i) > 0x7f) {
        throw new StructuredFieldException(i, "non-ASCII character");
      }
    }
    Parser p = new Parser(input);
    p.skipSp();
    return p;
  }

  /** §4.2 steps 6-7: trailing SP is discarded; anything else left over fails. */
  private void finish() throws StructuredFieldException {
    skipSp();
    if (!atEnd()) {
      throw fail("unexpected character '" + shown(peek()) + "' after the value");
    }
  }

  // §4.2.1
  private SfList list() throws StructuredFieldException {
    List<Member> members = new ArrayList<>();
    while (!atEnd()) {
      members.add(itemOrInnerList());
      skipOws();
      if (atEnd()) {
        break;
      }
      if (next() != ',') {
        throw failBefore("expected ',' between list members");
      }
      skipOws();
      if (atEnd()) {
        throw fail("trailing comma");
      }
    }
    return new SfList(members);
  }

  // §4.2.1.1
  private Member itemOrInnerList() throws StructuredFieldException {
    return !atEnd() && peek() == '(' ? innerList() : item();
  }

  // §4.2.1.2
  private InnerList innerList() throws StructuredFieldException {
    expect('(', "inner list must start with '('");
    List<Item> items = new ArrayList<>();
    while (!atEnd()) {
      skipSp();
      if (atEnd()) {
        break;
      }
      if (peek() == ')') {
        pos++;
        return new InnerList(items, parameters());
      }
      items.add(item());
      if (atEnd()) {
        break;
      }
      char c = peek();
      if (c != ' ' && c != ')') {
        throw fail("expected ' ' or ')' after an inner-list item");
      }
    }
    throw fail("inner list is not closed");
  }

  // §4.2.2
  private SfDictionary dictionary() throws StructuredFieldException {
    Map<String, Member> map = new LinkedHashMap<>();
    while (!atEnd()) {
      String key = key();
      Member member;
      if (!atEnd() && peek() == '=') {
        pos++;
        member = itemOrInnerList();
      } else {
        member = new Item(SfBoolean.TRUE, parameters());
      }
      // LinkedHashMap.put keeps the first position and overwrites the value, as §4.2.2 requires.
      map.put(key, member);
      skipOws();
      if (atEnd()) {
        break;
      }
      if (next() != ',') {
        throw failBefore("expected ',' between dictionary members");
      }
      skipOws();
      if (atEnd()) {
        throw fail("trailing comma");
      }
    }
    return SfDictionary.of(map);
  }

  // §4.2.3
  private Item item() throws StructuredFieldException {
    BareItem bare = bareItem();
    return new Item(bare, parameters());
  }

  // §4.2.3.1
  private BareItem bareItem() throws StructuredFieldException {
    if (atEnd()) {
      throw fail("expected an item, found the end of the value");
    }
    char c = peek();
    if (c == '-' || isDigit(c)) {
      return number();
    }
    if (c == '"') {
      return string();
    }
    if (c == '*' || isAlpha(c)) {
      return token();
    }
    return switch (c) {
      case ':' -> binary();
      case '?' -> bool();
      case '@' -> date();
      case '%' -> displayString();
      default -> throw fail("'" + shown(c) + "' cannot start an item");
    };
  }

  // §4.2.3.2
  private Parameters parameters() throws StructuredFieldException {
    Map<String, BareItem> map = null;
    while (!atEnd() && peek() == ';') {
      pos++;
      skipSp();
      String key = key();
      BareItem value = SfBoolean.TRUE;
      if (!atEnd() && peek() == '=') {
        pos++;
        value = bareItem();
      }
      if (map == null) {
        map = new LinkedHashMap<>();
      }
      map.put(key, value);
    }
    return map == null ? Parameters.empty() : Parameters.of(map);
  }

  // §4.2.3.3
  private String key() throws StructuredFieldException {
    if (atEnd()) {
      throw fail("expected a key, found the end of the value");
    }
    char first = peek();
    if (!isLcAlpha(first) && first != '*') {
      throw fail("a key must start with a-z or '*', found '" + shown(first) + "'");
    }
    int start = pos++;
    while (!atEnd() && isKeyRest(peek())) {
      pos++;
    }
    return input.substring(start, pos);
  }

  // §4.2.4
  private BareItem number() throws StructuredFieldException {
    int start = pos;
    boolean negative = false;
    if (peek() == '-') {
      negative = true;
      pos++;
    }
    if (atEnd() || !isDigit(peek())) {
      throw fail("expected a digit");
    }
    int digitsStart = pos;
    int dot = -1;
    while (!atEnd()) {
      char c = peek();
      if (isDigit(c)) {
        pos++;
      } else if (dot < 0 && c == '.') {
        if (pos - digitsStart > 12) {
          throw fail("decimal has more than 12 integer digits");
        }
        dot = pos++;
      } else {
        break;
      }
      int length = pos - digitsStart;
      if (dot < 0 && length > 15) {
        throw new StructuredFieldException(start, "integer has more than 15 digits");
      }
      if (dot >= 0 && length > 16) {
        throw new StructuredFieldException(start, "decimal has more than 16 characters");
      }
    }
    String digits = input.substring(digitsStart, pos);
    if (dot < 0) {
      long value = Long.parseLong(digits);
      return new SfInteger(negative ? -value : value);
    }
    if (dot == pos - 1) {
      throw new StructuredFieldException(dot, "decimal ends with '.'");
    }
    if (pos - dot - 1 > 3) {
      throw new StructuredFieldException(dot, "decimal has more than 3 fractional digits");
    }
    BigDecimal value = new BigDecimal(digits);
    return new SfDecimal(negative ? value.negate() : value);
  }

  // §4.2.5
  private SfString string() throws StructuredFieldException {
    int start = pos;
    expect('"', "string must start with '\"'");
    StringBuilder out = new StringBuilder();
    while (!atEnd()) {
      char c = next();
      if (c == '\\') {
        if (atEnd()) {
          throw fail("string ends inside an escape");
        }
        char escaped = next();
        if (escaped != '"' && escaped != '\\') {
          throw failBefore("only '\\\"' and '\\\\' may be escaped in a string");
        }
        out.append(escaped);
      } else if (c == '"') {
        return new SfString(out.toString());
      } else if (!Grammar.isStringChar(c)) {
        throw failBefore("control character in a string");
      } else {
        out.append(c);
      }
    }
    throw new StructuredFieldException(start, "string is not closed");
  }

  // §4.2.6
  private SfToken token() throws StructuredFieldException {
    int start = pos++;
    while (!atEnd() && isTokenRest(peek())) {
      pos++;
    }
    return new SfToken(input.substring(start, pos));
  }

  // §4.2.7
  private SfBinary binary() throws StructuredFieldException {
    int start = pos;
    expect(':', "byte sequence must start with ':'");
    int end = input.indexOf(':', pos);
    if (end < 0) {
      throw new StructuredFieldException(start, "byte sequence is not closed");
    }
    String b64 = input.substring(pos, end);
    for (int i = 0; i < b64.length(); i++) {
      if (!isBase64Char(b64.charAt(i))) {
        throw new StructuredFieldException(pos + i, "'" + shown(b64.charAt(i)) + "' is not a base64 character");
      }
    }
    pos = end + 1;
    try {
      // The JDK decoder accepts missing '=' padding and non-zero pad bits, as §4.2.7 advises
      // parsers to; it refuses '=' anywhere but at the end.
      return new SfBinary(Base64.getDecoder().decode(b64));
    } catch (IllegalArgumentException e) {
      throw new StructuredFieldException(start, "byte sequence is not valid base64");
    }
  }

  // §4.2.8
  private SfBoolean bool() throws StructuredFieldException {
    expect('?', "boolean must start with '?'");
    if (!atEnd() && peek() == '1') {
      pos++;
      return SfBoolean.TRUE;
    }
    if (!atEnd() && peek() == '0') {
      pos++;
      return SfBoolean.FALSE;
    }
    throw fail("boolean must be ?1 or ?0");
  }

  // §4.2.9
  private SfDate date() throws StructuredFieldException {
    expect('@', "date must start with '@'");
    int start = pos;
    if (atEnd() || !(peek() == '-' || isDigit(peek()))) {
      throw fail("a date must be '@' followed by an integer");
    }
    BareItem n = number();
    if (!(n instanceof SfInteger i)) {
      throw new StructuredFieldException(start, "a date must be an integer, not a decimal");
    }
    return new SfDate(i.value());
  }

  // §4.2.10
  private SfDisplayString displayString() throws StructuredFieldException {
    int start = pos;
    expect('%', "display string must start with '%'");
    expect('"', "display string must start with '%\"'");
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    while (!atEnd()) {
      char c = next();
      if (c <= 0x1f || c >= 0x7f) {
        throw failBefore("control or non-ASCII character in a display string");
      }
      if (c == '%') {
        if (pos + 2 > input.length()) {
          throw failBefore("truncated percent-escape in a display string");
        }
        int hi = lowerHex(input.charAt(pos));
        int lo = lowerHex(input.charAt(pos + 1));
        if (hi < 0 || lo < 0) {
          throw failBefore("a display string escape must be '%' and two lower-case hex digits");
        }
        pos += 2;
        bytes.write(hi << 4 | lo);
      } else if (c == '"') {
        try {
          String text = StandardCharsets.UTF_8.newDecoder()
              .onMalformedInput(CodingErrorAction.REPORT)
              .onUnmappableCharacter(CodingErrorAction.REPORT)
              .decode(ByteBuffer.wrap(bytes.toByteArray()))
              .toString();
          return new SfDisplayString(text);
        } catch (CharacterCodingException e) {
          throw new StructuredFieldException(start, "display string is not valid UTF-8");
        }
      } else {
        bytes.write(c);
      }
    }
    throw new StructuredFieldException(start, "display string is not closed");
  }

  private static int lowerHex(char c) {
    if (c >= '0' && c <= '9') {
      return c - '0';
    }
    if (c >= 'a' && c <= 'f') {
      return c - 'a' + 10;
    }
    return -1;
  }

  private boolean atEnd() {
    return pos >= input.length();
  }

  private char peek() {
    return input.charAt(pos);
  }

  private char next() {
    return input.charAt(pos++);
  }

  private void expect(char c, String reason) throws StructuredFieldException {
    if (atEnd() || peek() != c) {
      throw fail(reason);
    }
    pos++;
  }

  private void skipSp() {
    while (!atEnd() && peek() == ' ') {
      pos++;
    }
  }

  /** OWS: SP and HTAB (RFC 9110 §5.6.3). */
  private void skipOws() {
    while (!atEnd() && (peek() == ' ' || peek() == '\t')) {
      pos++;
    }
  }

  private StructuredFieldException fail(String reason) {
    return new StructuredFieldException(pos, reason);
  }

  /** A failure about the character just consumed. */
  private StructuredFieldException failBefore(String reason) {
    return new StructuredFieldException(pos - 1, reason);
  }

  private static String shown(char c) {
    return c >= 0x20 && c < 0x7f ? String.valueOf(c) : String.format("\\u%04x", (int) c);
  }
}
