package dev.sluice.core.transport;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A byte-exact HTTP/1.1 test server on a real socket: it records every request it reads (the
 * ground truth for "how many requests reached the server") and answers the nth request with the
 * nth scripted {@link Behaviour} (the last one repeats). Each connection gets its own thread and
 * serves requests until closed (keep-alive).
 */
final class RawServer implements AutoCloseable {

  /** A request as read off the socket. */
  record RawRequest(String requestLine, List<String> headerLines, byte[] body) {
    /** The values of a header, ignoring case, in order. */
    List<String> header(String name) {
      List<String> out = new ArrayList<>();
      for (String l : headerLines) {
        int c = l.indexOf(':');
        if (c > 0 && l.substring(0, c).trim().equalsIgnoreCase(name)) {
          out.add(l.substring(c + 1).trim());
        }
      }
      return out;
    }

    Optional<String> first(String name) {
      List<String> v = header(name);
      return v.isEmpty() ? Optional.empty() : Optional.of(v.get(0));
    }

    String bodyText() {
      return new String(body, StandardCharsets.UTF_8);
    }
  }

  /** What to do with one request. */
  interface Behaviour {
    /** Returns false to stop serving the connection. */
    boolean handle(Socket s, RawRequest r) throws IOException;
  }

  static Behaviour respond(int status, String body, String... headers) {
    return (s, r) -> {
      byte[] b = body.getBytes(StandardCharsets.UTF_8);
      StringBuilder sb = new StringBuilder("HTTP/1.1 " + status + " X\r\n");
      for (int i = 0; i < headers.length; i += 2) {
        sb.append(headers[i]).append(": ").append(headers[i + 1]).append("\r\n");
      }
      sb.append("Content-Length: ").append(b.length).append("\r\n\r\n");
      OutputStream out = s.getOutputStream();
      out.write(sb.toString().getBytes(StandardCharsets.ISO_8859_1));
      out.write(b);
      out.flush();
      return true;
    };
  }

  /** Reads the request, then resets the connection (TCP RST) without a byte of response. */
  static Behaviour reset() {
    return (s, r) -> {
      s.setSoLinger(true, 0);
      s.close();
      return false;
    };
  }

  /** Promises {@code promised} body bytes, sends {@code sent}, closes. */
  static Behaviour truncated(int promised, int sent) {
    return (s, r) -> {
      OutputStream out = s.getOutputStream();
      out.write(("HTTP/1.1 200 OK\r\nContent-Length: " + promised + "\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
      out.write(new byte[sent]);
      out.flush();
      s.close();
      return false;
    };
  }

  /** Never answers; waits until the client closes the connection (or the server stops). */
  Behaviour hang() {
    return (s, r) -> {
      try {
        while (s.getInputStream().read() >= 0) {
          // discard
        }
      } catch (IOException ignored) {
        // closed
      }
      clientClosed.countDown();
      return false;
    };
  }

  private final ServerSocket socket;
  private final List<Behaviour> script;
  private final List<RawRequest> requests = new CopyOnWriteArrayList<>();
  private final List<Socket> open = new CopyOnWriteArrayList<>();
  private final AtomicInteger connections = new AtomicInteger();
  private final CountDownLatch clientClosed = new CountDownLatch(1);
  private final Thread acceptor;

  RawServer(Behaviour... script) throws IOException {
    this.socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    this.script = List.of(script);
    this.acceptor = Thread.ofVirtual().start(this::accept);
  }

  /** Starts with a script filled in later (behaviours that need the server, such as {@link #hang()}). */
  static RawServer withScript(java.util.function.Function<RawServer, List<Behaviour>> script) throws IOException {
    RawServer holder = new RawServer();
    holder.late.addAll(script.apply(holder));
    return holder;
  }

  private final List<Behaviour> late = new CopyOnWriteArrayList<>();

  URI base() {
    return URI.create("http://127.0.0.1:" + socket.getLocalPort());
  }

  List<RawRequest> requests() {
    return List.copyOf(requests);
  }

  int connections() {
    return connections.get();
  }

  boolean awaitClientClose(long millis) throws InterruptedException {
    return clientClosed.await(millis, TimeUnit.MILLISECONDS);
  }

  private Behaviour behaviour(int n) {
    List<Behaviour> s = script.isEmpty() ? late : script;
    return s.get(Math.min(n, s.size() - 1));
  }

  private void accept() {
    while (!socket.isClosed()) {
      try {
        Socket s = socket.accept();
        connections.incrementAndGet();
        open.add(s);
        Thread.ofVirtual().start(() -> serve(s));
      } catch (IOException e) {
        return;
      }
    }
  }

  private void serve(Socket s) {
    try (s) {
      InputStream in = s.getInputStream();
      while (true) {
        RawRequest r = read(in);
        if (r == null) {
          return;
        }
        int n;
        synchronized (requests) {
          requests.add(r);
          n = requests.size() - 1;
        }
        if (!behaviour(n).handle(s, r)) {
          return;
        }
      }
    } catch (IOException ignored) {
      // the client went away
    }
  }

  private static RawRequest read(InputStream in) throws IOException {
    ByteArrayOutputStream head = new ByteArrayOutputStream();
    int state = 0;
    while (state < 4) {
      int c = in.read();
      if (c < 0) {
        return null;
      }
      head.write(c);
      state = (c == '\r' && (state == 0 || state == 2)) || (c == '\n' && (state == 1 || state == 3)) ? state + 1 : (c == '\r' ? 1 : 0);
    }
    String[] lines = head.toString(StandardCharsets.ISO_8859_1).split("\r\n");
    List<String> headers = new ArrayList<>(List.of(lines).subList(1, lines.length));
    int length = 0;
    for (String l : headers) {
      if (l.toLowerCase(Locale.ROOT).startsWith("content-length:")) {
        length = Integer.parseInt(l.substring(15).trim());
      }
    }
    byte[] body = in.readNBytes(length);
    return new RawRequest(lines[0], headers, body);
  }

  @Override
  public void close() throws IOException {
    socket.close();
    for (Socket s : open) {
      s.close();
    }
    acceptor.interrupt();
  }
}
