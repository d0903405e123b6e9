package dev.sluice.fake;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Objects;
import java.util.Optional;

/**
 * How the fake derives the <em>scope</em> of a request: the shared pool its quota, concurrency
 * limit and idempotency keys belong to. The default is {@link #authorization()}.
 *
 * <p>Scope names are safe to show and log: a credential never appears in them, only a short
 * SHA-256 fingerprint ({@link #credentialScope(String)}).
 *
 * @param kind where the scope comes from
 * @param header the request header carrying the account, when {@code kind} is {@link Kind#HEADER}
 */
public record ScopeBy(Kind kind, Optional<String> header) {

  /** The scope name of requests that carry no credential (or no account header). */
  public static final String ANONYMOUS = "anonymous";

  /** Where a request's scope comes from. */
  public enum Kind {
    /** The {@code Authorization} value: one pool per credential (the default). */
    AUTHORIZATION,
    /** An account header such as {@code X-Account}: one pool per account, whatever credential. */
    HEADER,
    /** The route family: one pool per endpoint family, shared by every caller. */
    FAMILY
  }

  public ScopeBy {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(header, "header");
    if (kind == Kind.HEADER && header.map(String::isBlank).orElse(true)) {
      throw new IllegalArgumentException("scope by header needs a header name (e.g. X-Account)");
    }
    if (kind != Kind.HEADER && header.isPresent()) {
      throw new IllegalArgumentException("only scope by header takes a header name");
    }
  }

  /** One pool per {@code Authorization} value (the default). */
  public static ScopeBy authorization() {
    return new ScopeBy(Kind.AUTHORIZATION, Optional.empty());
  }

  /** One pool per value of the given request header (e.g. {@code X-Account}). */
  public static ScopeBy header(String name) {
    return new ScopeBy(Kind.HEADER, Optional.of(Objects.requireNonNull(name, "name").trim()));
  }

  /** One pool per route family, shared by every caller. */
  public static ScopeBy family() {
    return new ScopeBy(Kind.FAMILY, Optional.empty());
  }

  /**
   * The scope name the fake gives requests carrying this {@code Authorization} value under {@link
   * #authorization()}: {@code cred:} and the first 12 hex digits of its SHA-256, or {@link
   * #ANONYMOUS} for none. Use it to script faults for one credential or to filter attempts.
   */
  public static String credentialScope(String authorizationValue) {
    if (authorizationValue == null || authorizationValue.isBlank()) {
      return ANONYMOUS;
    }
    try {
      byte[] digest = MessageDigest.getInstance("SHA-256")
          .digest(authorizationValue.trim().getBytes(StandardCharsets.UTF_8));
      return "cred:" + HexFormat.of().formatHex(digest, 0, 6);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is required of every JVM", e);
    }
  }

  /** The config spelling: {@code authorization}, {@code family} or {@code header:NAME}. */
  public String configName() {
    return switch (kind) {
      case AUTHORIZATION -> "authorization";
      case FAMILY -> "family";
      case HEADER -> "header:" + header.orElseThrow();
    };
  }

  /** Parses {@code authorization}, {@code family} or {@code header:NAME}; empty when it is neither. */
  public static Optional<ScopeBy> fromConfigName(String value) {
    if (value == null) {
      return Optional.empty();
    }
    String v = value.trim();
    if (v.equalsIgnoreCase("authorization")) {
      return Optional.of(authorization());
    }
    if (v.equalsIgnoreCase("family")) {
      return Optional.of(family());
    }
    if (v.regionMatches(true, 0, "header:", 0, 7) && !v.substring(7).isBlank()) {
      return Optional.of(header(v.substring(7)));
    }
    return Optional.empty();
  }
}
