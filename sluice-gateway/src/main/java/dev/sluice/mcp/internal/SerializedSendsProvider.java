package dev.sluice.mcp.internal;

import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpServerSession;
import io.modelcontextprotocol.spec.McpServerTransport;
import io.modelcontextprotocol.spec.McpServerTransportProvider;
import java.util.List;
import java.util.Objects;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;

/**
 * A server transport provider whose sessions send one message at a time.
 *
 * <p>Why this exists: the SDK's stdio server transport (mcp-core 2.0.1) puts each outgoing message
 * into a unicast sink with {@code tryEmitNext}, which fails with {@code FAIL_NON_SERIALIZED} when
 * two threads emit at once; the transport turns that into "Failed to enqueue message" and the
 * response is lost, so the client waits until its own timeout. Tool calls run on Reactor's
 * bounded-elastic threads, so two calls finishing together (three reads released by the end of
 * one scope hold, say) race exactly there. Clients that issue tool calls in parallel hit it
 * (ConcurrentStdioCallsTest: 110 answers of 400 without this class). Reported upstream as
 * modelcontextprotocol/java-sdk#686 and #304; this wrapper stays harmless once the SDK serializes
 * its own sends.
 *
 * <p>Every session transport the wrapped provider creates is wrapped in turn: its sends enter a
 * queue of this class's own (emitted under a lock, so never concurrently) and are handed to the
 * SDK's transport strictly one after the other ({@code concatMap}), each send's {@code Mono}
 * completing when the SDK accepted the message. Everything else is delegated unchanged.
 */
public final class SerializedSendsProvider implements McpServerTransportProvider {
  private final McpServerTransportProvider delegate;

  public SerializedSendsProvider(McpServerTransportProvider delegate) {
    this.delegate = Objects.requireNonNull(delegate, "delegate");
  }

  @Override
  public void setSessionFactory(McpServerSession.Factory sessionFactory) {
    Objects.requireNonNull(sessionFactory, "sessionFactory");
    delegate.setSessionFactory(transport -> sessionFactory.create(new SerializedTransport(transport)));
  }

  @Override
  public Mono<Void> notifyClients(String method, Object params) {
    return delegate.notifyClients(method, params);
  }

  @Override
  public Mono<Void> notifyClient(String sessionId, String method, Object params) {
    return delegate.notifyClient(sessionId, method, params);
  }

  @Override
  public Mono<Void> closeGracefully() {
    return delegate.closeGracefully();
  }

  @Override
  public void close() {
    delegate.close();
  }

  @Override
  public List<String> protocolVersions() {
    return delegate.protocolVersions();
  }

  /** One session's transport, sending one message at a time. */
  static final class SerializedTransport implements McpServerTransport {
    private record Send(McpSchema.JSONRPCMessage message, Sinks.One<Void> done) {}

    private final McpServerTransport delegate;
    private final Sinks.Many<Send> queue = Sinks.many().unicast().onBackpressureBuffer();
    private final Object emitLock = new Object();
    private final Sinks.Empty<Void> drained = Sinks.empty();

    SerializedTransport(McpServerTransport delegate) {
      this.delegate = Objects.requireNonNull(delegate, "delegate");
      queue.asFlux()
          .concatMap(send -> delegate.sendMessage(send.message())
              .doOnSuccess(ignored -> send.done().tryEmitEmpty())
              .onErrorResume(e -> {
                send.done().tryEmitError(e);
                return Mono.empty(); // one failed send does not stop the ones after it
              }))
          .doFinally(signal -> drained.tryEmitEmpty())
          .subscribe();
    }

    @Override
    public Mono<Void> sendMessage(McpSchema.JSONRPCMessage message) {
      return Mono.defer(() -> {
        Sinks.One<Void> done = Sinks.one();
        Sinks.EmitResult queued;
        synchronized (emitLock) {
          queued = queue.tryEmitNext(new Send(message, done));
        }
        return queued.isSuccess() ? done.asMono() : Mono.error(new IllegalStateException("MCP session closed; message not sent (" + queued + ")"));
      });
    }

    @Override
    public <T> T unmarshalFrom(Object data, TypeRef<T> typeRef) {
      return delegate.unmarshalFrom(data, typeRef);
    }

    @Override
    public Mono<Void> closeGracefully() {
      // Answers already queued go out first; then the SDK's transport closes (it drops what arrives after).
      return Mono.defer(() -> {
        synchronized (emitLock) {
          queue.tryEmitComplete();
        }
        return drained.asMono().timeout(java.time.Duration.ofSeconds(5), Mono.empty()); // bounded: a stuck send does not hold the close
      }).then(Mono.defer(delegate::closeGracefully));
    }

    @Override
    public void close() {
      closeGracefully().subscribe(ignored -> { }, e -> { }); // as McpTransport#close does: asynchronously
    }

    @Override
    public List<String> protocolVersions() {
      return delegate.protocolVersions();
    }
  }
}
