package dev.sluice.gateway.internal;

import org.eclipse.jetty.http.HttpVersion;
import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.internal.HttpConnection;

/**
 * HTTP/1.1 connections that remember the form of each request target as it stood on the request
 * line. Jetty fills an origin-form target's authority from {@code Host}, so by the time a handler
 * runs, {@code GET http://gateway/api/x} with a matching {@code Host} looks exactly like {@code GET
 * /api/x}; the gateway refuses every absolute-form target (it is not a proxy), so it needs the raw
 * form. HTTP/1.1 handles one request per connection at a time, so the connection's last target is
 * the one of the request being handled.
 */
public final class TargetFormConnectionFactory extends HttpConnectionFactory {
  public TargetFormConnectionFactory(HttpConfiguration config) {
    super(config);
  }

  @Override
  public Connection newConnection(Connector connector, EndPoint endPoint) {
    TargetFormConnection c = new TargetFormConnection(getHttpConfiguration(), connector, endPoint);
    c.setTransferEncodingChunkMaxLength(getTransferEncodingChunkMaxLength());
    return configure(c, connector, endPoint);
  }

  /** Whether the request's target was in absolute form ({@code scheme://authority/...}) on the request line. */
  public static boolean absoluteForm(Request request) {
    return request.getConnectionMetaData().getConnection() instanceof TargetFormConnection c && c.absolute;
  }

  private static final class TargetFormConnection extends HttpConnection {
    private volatile boolean absolute;

    TargetFormConnection(HttpConfiguration config, Connector connector, EndPoint endPoint) {
      super(config, connector, endPoint);
    }

    @Override
    protected HttpStreamOverHTTP1 newHttpStream(String method, String uri, HttpVersion version) {
      absolute = uri != null && !uri.startsWith("/") && !uri.equals("*") && !"CONNECT".equals(method);
      return super.newHttpStream(method, uri, version);
    }
  }
}
