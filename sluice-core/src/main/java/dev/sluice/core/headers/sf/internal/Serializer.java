package dev.sluice.core.headers.sf.internal;

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
import java.nio.charset.StandardCharsets;
import java.util.Iterator;
import java.util.Map;

/**
 * The serialization algorithms of RFC 9651 §4.1. The value types already refuse anything that
 * cannot be serialized, so these never fail.
 */
public final class Serializer {
  private static final char[] HEX = "0123456789abcdef".toCharArray();

  private Serializer() {}

  // §4.1.1
  public static String list(SfList list) {
    StringBuilder out = new StringBuilder();
    Iterator<Member> it = list.members().iterator();
    while (it.hasNext()) {
      member(out, it.next());
      if (it.hasNext()) {
        out.append(", ");
      }
    }
    return out.toString();
  }

  // §4.1.2
  public static String dictionary(SfDictionary dictionary) {
    StringBuilder out = new StringBuilder();
    Iterator<Map.Entry<String, Member>> it = dictionary.asMap().entrySet().iterator();
    while (it.hasNext()) {
      Map.Entry<String, Member> e = it.next();
      out.append(e.getKey());
      if (e.getValue() instanceof Item item && item.bareItem() instanceof SfBoolean b && b.value()) {
        parameters(out, item.parameters());
      } else {
        out.append('=');
        member(out, e.getValue());
      }
      if (it.hasNext()) {
        out.append(", ");
      }
    }
    return out.toString();
  }

  // §4.1.3
  public static String item(Item item) {
    StringBuilder out = new StringBuilder();
    item(out, item);
    return out.toString();
  }

  private static void member(StringBuilder out, Member member) {
    switch (member) {
      case Item item -> item(out, item);
      case InnerList inner -> innerList(out, inner);
    }
  }

  // §4.1.1.1
  private static void innerList(StringBuilder out, InnerList inner) {
    out.append('(');
    for (int i = 0; i < inner.items().size(); i++) {
      if (i > 0) {
        out.append(' ');
      }
      item(out, inner.items().get(i));
    }
    out.append(')');
    parameters(out, inner.parameters());
  }

  private static void item(StringBuilder out, Item item) {
    bareItem(out, item.bareItem());
    parameters(out, item.parameters());
  }

  // §4.1.1.2 (keys were checked when the Parameters were built, §4.1.1.3)
  private static void parameters(StringBuilder out, Parameters parameters) {
    for (Map.Entry<String, BareItem> e : parameters.asMap().entrySet()) {
      out.append(';').append(e.getKey());
      if (!(e.getValue() instanceof SfBoolean b && b.value())) {
        out.append('=');
        bareItem(out, e.getValue());
      }
    }
  }

  // §4.1.3.1
  private static void bareItem(StringBuilder out, BareItem bare) {
    switch (bare) {
      case SfInteger i -> out.append(i.value());
      case SfDecimal d -> decimal(out, d);
      case SfString s -> string(out, s.value());
      case SfToken t -> out.append(t.value());
      case SfBinary b -> out.append(':').append(b.base64()).append(':');
      case SfBoolean b -> out.append(b.value() ? "?1" : "?0");
      case SfDate d -> out.append('@').append(d.epochSeconds());
      case SfDisplayString d -> displayString(out, d.value());
    }
  }

  // §4.1.5: the value is already rounded to 3 digits; print at least one fractional digit and
  // no trailing zeros beyond it.
  private static void decimal(StringBuilder out, SfDecimal d) {
    String plain = d.value().toPlainString();
    int end = plain.length();
    int dot = plain.indexOf('.');
    while (end > dot + 2 && plain.charAt(end - 1) == '0') {
      end--;
    }
    out.append(plain, 0, end);
  }

  // §4.1.6
  private static void string(StringBuilder out, String s) {
    out.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '"' || c == '\\') {
        out.append('\\');
      }
      out.append(c);
    }
    out.append('"');
  }

  // §4.1.11
  private static void displayString(StringBuilder out, String s) {
    out.append("%\"");
    for (byte b : s.getBytes(StandardCharsets.UTF_8)) {
      int c = b & 0xff;
      if (c == '%' || c == '"' || c <= 0x1f || c >= 0x7f) {
        out.append('%').append(HEX[c >> 4]).append(HEX[c & 0xf]);
      } else {
        out.append((char) c);
      }
    }
    out.append('"');
  }
}
