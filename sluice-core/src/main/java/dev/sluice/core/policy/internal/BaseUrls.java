package dev.sluice.core.policy.internal;

import java.net.InetAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.UnknownHostException;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Validation of a provider's {@code base_url}. Messages never echo the URL: it may carry user
 * information (a password) that must not reach a log.
 */
public final class BaseUrls {
  private static final Pattern IPV4 = Pattern.compile("[0-9]{1,3}(\\.[0-9]{1,3}){3}");

  private BaseUrls() {}

  /** Why the text is not an acceptable base URL, or empty when it is. */
  public static Optional<String> problem(String text) {
    URI uri;
    try {
      uri = new URI(text);
    } catch (URISyntaxException e) {
      return Optional.of("not a valid URL (" + e.getReason() + "); expected an absolute http or https URL such as https://api.example.com");
    }
    return problem(uri);
  }

  /** Why the URI is not an acceptable base URL, or empty when it is. */
  public static Optional<String> problem(URI uri) {
    String scheme = uri.getScheme() == null ? null : uri.getScheme().toLowerCase(Locale.ROOT);
    if (scheme == null || uri.isOpaque()) {
      return Optional.of("not an absolute URL; expected http:// or https:// followed by a host");
    }
    if (!scheme.equals("http") && !scheme.equals("https")) {
      return Optional.of("the scheme is '" + scheme + "'; expected http or https");
    }
    if (uri.getRawUserInfo() != null) {
      return Optional.of("the URL contains user information (user:password@); put credentials under 'credential', never in the URL");
    }
    if (uri.getHost() == null || uri.getHost().isEmpty()) {
      return Optional.of("the URL has no host (or an invalid one); expected e.g. https://api.example.com");
    }
    if (uri.getRawQuery() != null) {
      return Optional.of("the URL has a query string; a base URL cannot carry one");
    }
    if (uri.getRawFragment() != null) {
      return Optional.of("the URL has a fragment ('#'); a base URL cannot carry one");
    }
    String path = uri.getRawPath() == null ? "" : uri.getRawPath();
    if (!path.isEmpty() && !path.equals("/")) {
      for (String seg : path.substring(1).split("/", -1)) {
        if (PathCodec.isDotSegment(seg) || seg.toLowerCase(Locale.ROOT).contains("%2f")) {
          return Optional.of("the URL path contains a dot-segment or an encoded slash");
        }
      }
    }
    if (isLinkLocalLiteral(uri.getHost())) {
      return Optional.of("the host is a link-local address (cloud metadata services live there); Sluice refuses to reach it");
    }
    return Optional.empty();
  }

  /**
   * Whether a credential may travel to this base URL without {@code allow_plain_http}: it is
   * {@code https}, or its host is loopback ({@code localhost}, {@code 127.0.0.0/8}, {@code ::1}).
   * No DNS lookup: a name other than {@code localhost} is not loopback.
   */
  public static boolean isHttpsOrLoopback(URI uri) {
    if ("https".equalsIgnoreCase(uri.getScheme())) {
      return true;
    }
    String host = uri.getHost() == null ? "" : uri.getHost().toLowerCase(Locale.ROOT);
    return host.equals("localhost") || isLoopbackLiteral(host);
  }

  /**
   * Whether {@code host} is a loopback address literal: IPv4 {@code 127.0.0.0/8}, or IPv6 {@code
   * ::1} in any spelling, bracketed or not. A name is never looked up (so never loopback here).
   */
  public static boolean isLoopbackLiteral(String host) {
    if (host == null || host.isEmpty()) {
      return false;
    }
    if (IPV4.matcher(host).matches()) {
      return host.startsWith("127.");
    }
    String literal = host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
    if (!literal.contains(":")) {
      return false; // a name
    }
    try {
      return InetAddress.getByName(literal).isLoopbackAddress(); // an IPv6 literal: no DNS lookup happens
    } catch (UnknownHostException | SecurityException e) {
      return false;
    }
  }

  /** The base URL without a trailing slash, so that {@code base + "/v1/x"} is always right. */
  public static URI normalize(URI uri) {
    String s = uri.toString();
    while (s.endsWith("/")) {
      s = s.substring(0, s.length() - 1);
    }
    return URI.create(s);
  }

  private static boolean isLinkLocalLiteral(String host) {
    boolean literal = IPV4.matcher(host).matches() || host.startsWith("[");
    if (!literal) {
      return host.equalsIgnoreCase("metadata.google.internal");
    }
    try {
      // A literal address: no DNS lookup happens.
      InetAddress a = InetAddress.getByName(host);
      return a.isLinkLocalAddress();
    } catch (UnknownHostException | SecurityException e) {
      return false;
    }
  }
}
