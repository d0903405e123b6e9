package dev.sluice.core.headers;

import dev.sluice.core.headers.RateLimitObservation.Unit;
import dev.sluice.core.headers.sf.BareItem;
import dev.sluice.core.headers.sf.Item;
import dev.sluice.core.headers.sf.Member;
import dev.sluice.core.headers.sf.Parameters;
import dev.sluice.core.headers.sf.SfBinary;
import dev.sluice.core.headers.sf.SfBoolean;
import dev.sluice.core.headers.sf.SfDate;
import dev.sluice.core.headers.sf.SfDecimal;
import dev.sluice.core.headers.sf.SfDisplayString;
import dev.sluice.core.headers.sf.SfInteger;
import dev.sluice.core.headers.sf.SfList;
import dev.sluice.core.headers.sf.SfString;
import dev.sluice.core.headers.sf.SfToken;
import dev.sluice.core.headers.sf.StructuredFieldException;
import dev.sluice.core.headers.sf.StructuredFields;
import dev.sluice.core.headers.internal.InstantMath;
import dev.sluice.core.http.Headers;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.function.ToLongFunction;

/**
 * Reads the IETF {@code RateLimit-Policy} and {@code RateLimit} fields of
 * draft-ietf-httpapi-ratelimit-headers-11, both RFC 9651 Lists of Items.
 *
 * <pre>
 * RateLimit-Policy: "hour";q=1000;w=3600, "day";q=5000;w=86400
 * RateLimit: "day";r=100;t=36000
 * </pre>
 *
 * <p>One {@link RateLimitObservation} is produced per policy name, joining the {@code RateLimit}
 * member (remaining {@code r}, reset {@code t} seconds after {@code now}) with the
 * {@code RateLimit-Policy} member of the same name (quota {@code q} as the limit, window
 * {@code w}, unit {@code qu}). A name found in only one field yields an observation with only that
 * field's values. Order: names in {@code RateLimit} order, then policy-only names.
 *
 * <p>Reading rules (the draft says malformed fields MUST be ignored):
 * <ul>
 *   <li>All lines of a field are joined with {@code ", "}; if the result is not a valid List the
 *       whole field is ignored and a {@link HeaderFlag#MALFORMED_HEADER_IGNORED} note says why.
 *   <li>A member whose required parameter ({@code q}, {@code r}) is missing, or whose
 *       {@code q r t w pk qu} has the wrong type or an out-of-range value (negative counts, a zero
 *       window), is ignored with a note; the other members are kept. Unknown parameters are
 *       ignored silently, as the draft allows.
 *   <li>The policy name must be a String per draft-11. A Token is accepted as well, because
 *       servers built against earlier drafts send {@code default;q=100}; anything else is ignored.
 *   <li>The same name twice in one field keeps the more conservative member (smaller {@code r},
 *       smaller {@code q}) and adds a {@link HeaderFlag#CONFLICTING_HEADERS} note.
 * </ul>
 *
 * <p>Quota units ({@code qu}, a String per the draft; a Token is accepted): {@code requests}
 * (the default, also spelled {@code request} in the draft's registry) maps to
 * {@link Unit#REQUESTS}. {@code concurrent-requests} maps to {@link Unit#REQUESTS} too, the
 * closest unit: it counts requests, though in flight rather than per window. {@code content-bytes}
 * maps to {@link Unit#TOKENS}, the unit Sluice uses for volume quotas that are not a request count,
 * so a byte quota is never mistaken for a request allowance. Any other unit cannot be represented:
 * the policy is ignored with a note, and so is a {@code RateLimit} member of that name, whose count
 * would be in the same unknown unit. A {@code RateLimit} member takes its unit from the policy of
 * the same name (even one ignored for another reason, since its {@code qu} still says what
 * {@code r} counts); with no policy at all it counts requests, the draft's default.
 *
 * <p>The partition is the policy name, followed by {@code ;pk=} and the partition key in base64
 * when one is sent ({@code "peruser;pk=cHsdsRa894=="}); the {@code RateLimit} member's key wins
 * over the policy's. Resets are not capped here: absurd delays are capped, and flagged, where a
 * delay is planned. This reader never throws on header content.
 */
public final class IetfRateLimitReader implements RateLimitDialectReader {
  /** The field carrying the current service limit. */
  public static final String RATE_LIMIT = "RateLimit";
  /** The field carrying the quota policies. */
  public static final String RATE_LIMIT_POLICY = "RateLimit-Policy";

  private static final int MAX_SHOWN_NAME = 64;

  @Override
  public RateLimitDialect dialect() {
    return RateLimitDialect.IETF;
  }

  @Override
  public boolean present(Headers headers) {
    return headers.contains(RATE_LIMIT) || headers.contains(RATE_LIMIT_POLICY);
  }

  @Override
  public List<RateLimitObservation> read(Headers headers, Instant now, List<HeaderNote> notes) {
    Map<String, Optional<Unit>> declaredUnits = new LinkedHashMap<>();
    Map<String, Policy> policies = readPolicies(headers, notes, declaredUnits);
    Map<String, Limit> limits = readLimits(headers, notes, declaredUnits);

    Set<String> names = new LinkedHashSet<>(limits.keySet());
    names.addAll(policies.keySet());
    List<RateLimitObservation> out = new ArrayList<>(names.size());
    for (String name : names) {
      Policy policy = policies.get(name);
      Limit limit = limits.get(name);
      // A limit whose declared unit is unknown was already dropped; otherwise the draft's default.
      Unit unit = policy != null ? policy.unit() : declaredUnits.getOrDefault(name, Optional.empty()).orElse(Unit.REQUESTS);
      Optional<SfBinary> pk = limit != null && limit.pk().isPresent() ? limit.pk() : policy == null ? Optional.empty() : policy.pk();
      String source = policy == null ? RATE_LIMIT : limit == null ? RATE_LIMIT_POLICY : RATE_LIMIT + ", " + RATE_LIMIT_POLICY;
      out.add(new RateLimitObservation(
          RateLimitDialect.IETF,
          unit,
          Optional.of(pk.map(k -> name + ";pk=" + k.base64()).orElse(name)),
          policy == null ? OptionalLong.empty() : OptionalLong.of(policy.quota()),
          limit == null ? OptionalLong.empty() : OptionalLong.of(limit.remaining()),
          policy == null ? Optional.empty() : policy.window(),
          limit == null ? Optional.empty() : limit.resetSeconds().map(t -> InstantMath.plusSaturating(now, Duration.ofSeconds(t))),
          source));
    }
    return List.copyOf(out);
  }

  private record Policy(long quota, Unit unit, Optional<Duration> window, Optional<SfBinary> pk) {}

  private record Limit(long remaining, Optional<Long> resetSeconds, Optional<SfBinary> pk) {}

  /** Thrown inside this class only, to skip one member; the message becomes the note's detail. */
  private static final class BadMember extends Exception {
    private static final long serialVersionUID = 1L;

    BadMember(String reason) {
      super(reason, null, false, false);
    }
  }

  private Map<String, Policy> readPolicies(Headers headers, List<HeaderNote> notes, Map<String, Optional<Unit>> declaredUnits) {
    Map<String, Policy> policies = new LinkedHashMap<>();
    List<Member> members = parse(headers, RATE_LIMIT_POLICY, notes);
    for (int i = 0; i < members.size(); i++) {
      String name = null;
      try {
        Item item = item(members.get(i));
        name = name(item);
        Parameters p = item.parameters();
        Optional<Unit> unit = unit(p);
        declaredUnits.putIfAbsent(name, unit);
        if (unit.isEmpty()) {
          throw new BadMember(unitProblem(p.get("qu").orElseThrow()));
        }
        long quota = nonNegative(p, "q").orElseThrow(() -> new BadMember("required parameter q (quota) is missing"));
        OptionalLong w = nonNegative(p, "w");
        if (w.isPresent() && w.getAsLong() == 0) {
          throw new BadMember("window w must be at least 1 second, got 0");
        }
        Policy policy = new Policy(quota, unit.get(), w.isPresent() ? Optional.of(Duration.ofSeconds(w.getAsLong())) : Optional.empty(), pk(p));
        keepSmaller(policies, name, policy, Policy::quota, RATE_LIMIT_POLICY, "q", "quota", notes);
        // An accepted policy's unit wins over an earlier, ignored member of the same name.
        declaredUnits.put(name, Optional.of(policies.get(name).unit()));
      } catch (BadMember e) {
        notes.add(memberIgnored(RATE_LIMIT_POLICY, i, name, e.getMessage()));
      }
    }
    return policies;
  }

  private Map<String, Limit> readLimits(Headers headers, List<HeaderNote> notes, Map<String, Optional<Unit>> declaredUnits) {
    Map<String, Limit> limits = new LinkedHashMap<>();
    List<Member> members = parse(headers, RATE_LIMIT, notes);
    for (int i = 0; i < members.size(); i++) {
      String name = null;
      try {
        Item item = item(members.get(i));
        name = name(item);
        Parameters p = item.parameters();
        long remaining = nonNegative(p, "r").orElseThrow(() -> new BadMember("required parameter r (remaining quota) is missing"));
        OptionalLong t = nonNegative(p, "t");
        Optional<SfBinary> pk = pk(p);
        if (declaredUnits.containsKey(name) && declaredUnits.get(name).isEmpty()) {
          throw new BadMember("its policy's quota unit is not understood, so r cannot be read");
        }
        Limit limit = new Limit(remaining, t.isPresent() ? Optional.of(t.getAsLong()) : Optional.empty(), pk);
        keepSmaller(limits, name, limit, Limit::remaining, RATE_LIMIT, "r", "remaining quota", notes);
      } catch (BadMember e) {
        notes.add(memberIgnored(RATE_LIMIT, i, name, e.getMessage()));
      }
    }
    return limits;
  }

  /**
   * Keeps {@code member} under {@code name}; when the name was already seen, keeps whichever has the
   * smaller {@code count} (the more conservative reading) and notes the conflict.
   */
  private static <T> void keepSmaller(Map<String, T> kept, String name, T member, ToLongFunction<T> count,
      String field, String param, String what, List<HeaderNote> notes) {
    T earlier = kept.get(name);
    if (earlier == null) {
      kept.put(name, member);
      return;
    }
    long before = count.applyAsLong(earlier);
    long now = count.applyAsLong(member);
    notes.add(new HeaderNote(HeaderFlag.CONFLICTING_HEADERS, field, "policy \"" + shortName(name) + "\" is listed twice ("
        + param + "=" + before + " and " + param + "=" + now + "); the smaller " + what + " was kept"));
    if (now < before) {
      kept.put(name, member);
    }
  }

  /** The members of the field, or none (with a note) when it is absent or not a valid List. */
  private static List<Member> parse(Headers headers, String field, List<HeaderNote> notes) {
    Optional<String> value = headers.combined(field);
    if (value.isEmpty()) {
      return List.of();
    }
    try {
      SfList list = StructuredFields.parseList(value.get());
      return list.members();
    } catch (StructuredFieldException e) {
      notes.add(new HeaderNote(HeaderFlag.MALFORMED_HEADER_IGNORED, field,
          "not a valid structured-field List (RFC 9651): " + e.getMessage() + "; the whole field was ignored"));
      return List.of();
    }
  }

  private static Item item(Member member) throws BadMember {
    if (member instanceof Item item) {
      return item;
    }
    throw new BadMember("it is an inner list, not an item");
  }

  private static String name(Item item) throws BadMember {
    return switch (item.bareItem()) {
      case SfString s -> s.value();
      case SfToken t -> t.value();
      default -> throw new BadMember("the policy name must be a String, got " + shown(item.bareItem()));
    };
  }

  /** The declared unit, {@link Unit#REQUESTS} when {@code qu} is absent, empty when not understood. */
  private static Optional<Unit> unit(Parameters p) {
    Optional<BareItem> qu = p.get("qu");
    if (qu.isEmpty()) {
      return Optional.of(Unit.REQUESTS);
    }
    String text = switch (qu.get()) {
      case SfString s -> s.value();
      case SfToken t -> t.value();
      default -> "";
    };
    return switch (text) {
      case "requests", "request", "concurrent-requests" -> Optional.of(Unit.REQUESTS);
      case "content-bytes" -> Optional.of(Unit.TOKENS);
      default -> Optional.empty();
    };
  }

  private static String unitProblem(BareItem qu) {
    return switch (qu) {
      case SfString s -> "quota unit \"" + shortName(s.value()) + "\" is not one of requests, content-bytes, concurrent-requests";
      case SfToken t -> "quota unit " + shortName(t.value()) + " is not one of requests, content-bytes, concurrent-requests";
      default -> "quota unit qu must be a String, got " + shown(qu);
    };
  }

  private static OptionalLong nonNegative(Parameters p, String key) throws BadMember {
    Optional<BareItem> value = p.get(key);
    if (value.isEmpty()) {
      return OptionalLong.empty();
    }
    if (!(value.get() instanceof SfInteger i)) {
      throw new BadMember("parameter " + key + " must be an Integer, got " + shown(value.get()));
    }
    if (i.value() < 0) {
      throw new BadMember("parameter " + key + " must not be negative, got " + i.value());
    }
    return OptionalLong.of(i.value());
  }

  private static Optional<SfBinary> pk(Parameters p) throws BadMember {
    Optional<BareItem> value = p.get("pk");
    if (value.isEmpty()) {
      return Optional.empty();
    }
    if (value.get() instanceof SfBinary b) {
      return Optional.of(b);
    }
    throw new BadMember("partition key pk must be a Byte Sequence, got " + shown(value.get()));
  }

  private static HeaderNote memberIgnored(String field, int index, String name, String reason) {
    String which = "member " + (index + 1) + (name == null ? "" : " (\"" + shortName(name) + "\")");
    return new HeaderNote(HeaderFlag.MALFORMED_HEADER_IGNORED, field, which + " ignored: " + reason);
  }

  /** Type names for notes; values are left out so that a note stays short. */
  private static String shown(BareItem item) {
    return switch (item) {
      case SfInteger i -> "an Integer";
      case SfDecimal d -> "a Decimal";
      case SfString s -> "a String";
      case SfToken t -> "a Token";
      case SfBinary b -> "a Byte Sequence";
      case SfBoolean b -> "a Boolean";
      case SfDate d -> "a Date";
      case SfDisplayString d -> "a Display String";
    };
  }

  private static String shortName(String name) {
    return name.length() <= MAX_SHOWN_NAME ? name : name.substring(0, MAX_SHOWN_NAME) + "...";
  }

}
