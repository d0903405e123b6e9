package dev.sluice.core.transport;

import dev.sluice.core.classify.AttemptResult;
import dev.sluice.core.classify.TransportFailure;
import dev.sluice.core.engine.AttemptRequest;
import dev.sluice.core.engine.Transport;
import dev.sluice.core.http.Headers;
import dev.sluice.core.transport.internal.FailureMapping;
import dev.sluice.core.transport.internal.FailureMapping.Stage;
import dev.sluice.core.transport.internal.ForwardedHeaders;
import java.io.ByteArrayOutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.Optional;
import dev.sluice.core.transport.internal.ForbiddenAddresses;
import org.eclipse.jetty.util.Promise;
import org.eclipse.jetty.util.SocketAddressResolver;
import java.nio.ByteBuffer;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.eclipse.jetty.client.BytesRequestContent;
import org.eclipse.jetty.client.HttpClient;
import org.eclipse.jetty.client.Request;
import org.eclipse.jetty.client.Response;
import org.eclipse.jetty.client.Result;
import org.eclipse.jetty.client.transport.HttpClientTransportOverHTTP;
import org.eclipse.jetty.http.HttpCookieStore;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@link Transport} that sends attempts over real HTTP/1.1, with Jetty 12's asynchronous
 * {@link HttpClient}. One call to {@link #send} puts at most one request on the wire; the client
 * underneath never retries, never follows a redirect, never answers an authentication challenge,
 * keeps no cookies and decodes no content (docs/decisions/0003-transport-jetty-client.md).
 *
 * <p>Per attempt: the target is appended to the provider's base URL; the agent's header fields go
 * out except framing and hop-by-hop fields and the fields the transport owns (the credential
 * header, the idempotency header, the task header), which it sets itself; the body is sent as
 * given. The credential is added here and nowhere else, and never logged.
 *
 * <p>Failures say whether the request may have left. Only an exchange that never reached a
 * connection sent nothing: {@code connect_failed} or {@code connect_timeout}. Once the request began
 * on a connection, a failure without a response head is {@code reset_after_send} or {@code
 * read_timeout}, and a response cut short is {@code truncated_response}: the outcome is unknown. A
 * response whose head arrived but whose body is longer than the cap is a {@link
 * AttemptResult.Response} with {@code bodyTooLarge} set and no body: the status is known. (Jetty's "committed" notification cannot draw the line: a reset can fail
 * the exchange before it is delivered, although the server read the whole request; see {@link
 * FailureMapping}.)
 *
 * <p>Addresses: every provider host (name or literal) is resolved at connect time through {@link
 * TransportSettings#hostResolver()}, and the connection is refused — {@code connect_failed},
 * nothing sent — when any address it resolves to is link-local or a cloud metadata endpoint
 * ({@link ForbiddenAddresses}), so a name that points there is refused like a literal address.
 *
 * <p>{@link #send} never blocks: it hands the request to the client's selector and returns. The
 * returned future completes on one of the client's threads ({@code sluice-http-*}). Cancelling it
 * aborts the exchange. Thread-safe; {@link #close()} stops the client and fails what is in flight.
 */
public final class JettyTransport implements Transport, AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(JettyTransport.class);

  private final HttpClient client;
  private final TransportSettings settings;
  private final Map<String, ProviderEndpoint> endpoints;

  private JettyTransport(HttpClient client, TransportSettings settings, Map<String, ProviderEndpoint> endpoints) {
    this.client = client;
    this.settings = settings;
    this.endpoints = endpoints;
  }

  /**
   * Starts a transport.
   *
   * @param settings timeouts, body cap, task header
   * @param endpoints by provider id (the {@code provider} of each attempt's scope)
   * @throws IllegalStateException when the HTTP client cannot start
   */
  public static JettyTransport start(TransportSettings settings, Map<String, ProviderEndpoint> endpoints) {
    Objects.requireNonNull(settings, "settings");
    Map<String, ProviderEndpoint> eps = Map.copyOf(Objects.requireNonNull(endpoints, "endpoints"));
    QueuedThreadPool pool = new QueuedThreadPool();
    pool.setName("sluice-http");
    pool.setDaemon(true);
    // HTTP/1.1 only: one request per connection at a time, so "committed" has one meaning.
    HttpClient client = new HttpClient(new HttpClientTransportOverHTTP(1));
    client.setExecutor(pool);
    client.setFollowRedirects(false);
    client.setConnectTimeout(settings.connectTimeout().toMillis());
    client.setIdleTimeout(settings.readTimeout().toMillis());
    client.setHttpCookieStore(new HttpCookieStore.Empty());
    client.setUserAgentField(null);
    client.setDefaultRequestContentType(null);
    client.setMaxConnectionsPerDestination(256);
    client.setMaxRequestsQueuedPerDestination(1 << 16);
    client.setSocketAddressResolver(new GuardedResolver(settings.hostResolver(), pool));
    try {
      client.start();
    } catch (Exception e) {
      throw new IllegalStateException("the HTTP client could not start: " + e, e);
    }
    // start() installs the default protocol handlers (redirects, 401/407 challenges, 100-continue,
    // upgrades) and content decoders; each could make the client act on its own. Remove them all.
    client.getProtocolHandlers().clear();
    client.getContentDecoderFactories().clear();
    return new JettyTransport(client, settings, eps);
  }

  /** The settings in force. */
  public TransportSettings settings() {
    return settings;
  }

  @Override
  public CompletableFuture<AttemptResult> send(AttemptRequest attempt) {
    Objects.requireNonNull(attempt, "attempt");
    ProviderEndpoint ep = endpoints.get(attempt.scope().provider());
    if (ep == null) {
      LOG.warn("no endpoint for provider '{}' (attempt {} of action {}); nothing sent", attempt.scope().provider(), attempt.attempt(),
          attempt.actionId());
      return CompletableFuture.completedFuture(new AttemptResult.Failure(TransportFailure.CONNECT_FAILED));
    }
    URI uri;
    try {
      if (!attempt.target().startsWith("/")) {
        throw new IllegalArgumentException("not origin-form");
      }
      uri = URI.create(ep.baseUrl() + attempt.target());
    } catch (IllegalArgumentException e) {
      LOG.warn("attempt {} of action {}: the target is not a valid URL path ({}); nothing sent", attempt.attempt(), attempt.actionId(),
          e.getMessage());
      return CompletableFuture.completedFuture(new AttemptResult.Failure(TransportFailure.CONNECT_FAILED));
    }
    Exchange exchange = new Exchange(attempt);
    Request request = client.newRequest(uri)
        .method(attempt.method())
        .followRedirects(false)
        .idleTimeout(settings.readTimeout().toMillis(), TimeUnit.MILLISECONDS)
        .headers(h -> writeHeaders(h, attempt, ep));
    byte[] body = attempt.body();
    if (body.length > 0) {
      request.body(new BytesRequestContent((String) null, body));
    }
    request.onRequestBegin(r -> exchange.reach(Stage.WRITING));
    request.onRequestCommit(r -> exchange.reach(Stage.COMMITTED));
    exchange.future.whenComplete((r, e) -> {
      if (exchange.future.isCancelled()) {
        request.abort(new CancellationException("the engine cancelled the attempt"));
      }
    });
    try {
      request.send(exchange);
    } catch (RuntimeException e) {
      LOG.warn("attempt {} of action {} could not be handed to the HTTP client ({}); nothing sent", attempt.attempt(), attempt.actionId(),
          e.toString());
      exchange.future.complete(new AttemptResult.Failure(TransportFailure.CONNECT_FAILED));
    }
    return exchange.future;
  }

  private void writeHeaders(HttpFields.Mutable h, AttemptRequest attempt, ProviderEndpoint ep) {
    Set<String> owned = new HashSet<>();
    ep.credential().ifPresent(c -> owned.add(c.name().toLowerCase(Locale.ROOT)));
    ep.idempotencyHeader().ifPresent(n -> owned.add(n.toLowerCase(Locale.ROOT)));
    settings.taskHeader().ifPresent(n -> owned.add(n.toLowerCase(Locale.ROOT)));
    boolean agentSentUserAgent = false;
    for (Map.Entry<String, List<String>> e : attempt.headers().asMap().entrySet()) {
      if (!ForwardedHeaders.forwarded(e.getKey(), owned)) {
        continue;
      }
      agentSentUserAgent |= e.getKey().equalsIgnoreCase("user-agent");
      for (String v : e.getValue()) {
        h.add(e.getKey(), v);
      }
    }
    if (!agentSentUserAgent) {
      h.put(HttpHeader.USER_AGENT, settings.userAgent());
    }
    if (ep.idempotencyHeader().isPresent() && attempt.idempotencyKey().isPresent()) {
      h.put(ep.idempotencyHeader().get(), attempt.idempotencyKey().get());
    }
    settings.taskHeader().ifPresent(n -> h.put(n, attempt.taskId()));
    ep.credential().ifPresent(c -> h.put(c.name(), c.value()));
  }

  /** Stops the HTTP client; attempts in flight fail. Idempotent. */
  @Override
  public void close() {
    try {
      client.stop();
    } catch (Exception e) {
      LOG.warn("the HTTP client did not stop cleanly: {}", e.toString());
    }
  }

  /** Resolves through the configured resolver on the client's pool; refuses forbidden addresses. */
  private static final class GuardedResolver implements SocketAddressResolver {
    private final HostResolver resolver;
    private final java.util.concurrent.Executor executor;

    GuardedResolver(HostResolver resolver, java.util.concurrent.Executor executor) {
      this.resolver = resolver;
      this.executor = executor;
    }

    @Override
    public void resolve(String host, int port, Map<String, Object> context, Promise<List<InetSocketAddress>> promise) {
      executor.execute(() -> {
        try {
          String name = host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
          List<InetAddress> addresses = resolver.resolve(name);
          if (addresses.isEmpty()) {
            throw new UnknownHostException("no address");
          }
          List<InetSocketAddress> out = new ArrayList<>();
          for (InetAddress a : addresses) {
            Optional<String> why = ForbiddenAddresses.why(a);
            if (why.isPresent()) {
              LOG.warn("refused to connect to provider host {}: it resolves to {}; nothing sent", name, why.get());
              promise.failed(new UnknownHostException("refused: the host resolves to " + why.get()));
              return;
            }
            out.add(new InetSocketAddress(a, port));
          }
          promise.succeeded(out);
        } catch (UnknownHostException | RuntimeException e) {
          promise.failed(e);
        }
      });
    }
  }

  /** One attempt's response listener: buffers the body up to the cap and maps the end. */
  private final class Exchange implements Response.Listener {
    final AttemptRequest attempt;
    final CompletableFuture<AttemptResult> future = new CompletableFuture<>();
    final ByteArrayOutputStream body = new ByteArrayOutputStream();
    /** Only moves forward: the commit notification may run after the response head was already read. */
    final AtomicReference<Stage> stage = new AtomicReference<>(Stage.CONNECTING);
    volatile boolean tooLarge;
    volatile int status;
    volatile Headers headers = Headers.empty();

    Exchange(AttemptRequest attempt) {
      this.attempt = attempt;
    }

    void reach(Stage s) {
      stage.accumulateAndGet(s, (a, b) -> b.ordinal() > a.ordinal() ? b : a);
    }

    @Override
    public void onHeaders(Response response) {
      reach(Stage.RESPONDING);
      status = response.getStatus();
      Headers.Builder b = Headers.builder();
      for (HttpField f : response.getHeaders()) {
        b.add(f.getName(), f.getValue() == null ? "" : f.getValue());
      }
      headers = b.build();
      long declared = response.getHeaders().getLongField(HttpHeader.CONTENT_LENGTH);
      if (declared > settings.maxResponseBytes()) {
        refuseBody(response);
      }
    }

    @Override
    public void onContent(Response response, ByteBuffer content) {
      if (tooLarge) {
        return;
      }
      if (body.size() + content.remaining() > settings.maxResponseBytes()) {
        refuseBody(response);
        return;
      }
      byte[] chunk = new byte[content.remaining()];
      content.get(chunk);
      body.writeBytes(chunk);
    }

    private void refuseBody(Response response) {
      tooLarge = true;
      response.abort(new IllegalStateException("response body over the cap of " + settings.maxResponseBytes() + " bytes"));
    }

    @Override
    public void onComplete(Result result) {
      AttemptResult out;
      if (result.getResponseFailure() == null && stage.get() == Stage.RESPONDING && !tooLarge && status >= 100 && status <= 599) {
        // Also when the request side failed: a server may answer early and close; its answer stands.
        out = new AttemptResult.Response(status, headers, body.toByteArray());
      } else if (tooLarge && status >= 100 && status <= 599) {
        // The head arrived complete: the provider answered with this status. Only the body is
        // refused, so the outcome is known (not truncated_response); the caller learns it was too large.
        LOG.warn("attempt {} of action {}: the response body is larger than the cap of {} bytes; status {} kept, body not read",
            attempt.attempt(), attempt.actionId(), settings.maxResponseBytes(), status);
        out = AttemptResult.Response.bodyOverCap(status, headers);
      } else {
        Throwable cause = result.getFailure();
        TransportFailure kind = FailureMapping.kind(stage.get(), cause);
        if (!future.isCancelled()) {
          LOG.debug("attempt {} of action {} failed at {}: {} ({})", attempt.attempt(), attempt.actionId(), stage.get(), kind.code(), String.valueOf(cause));
        }
        out = new AttemptResult.Failure(kind);
      }
      future.complete(out);
    }
  }
}
