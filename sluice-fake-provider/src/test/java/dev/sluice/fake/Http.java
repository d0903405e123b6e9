package dev.sluice.fake;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * Test client: java.net.http over HTTP/1.1 that never follows redirects; the JDK's connect retry
 * is switched off in the surefire configuration, and the fake's attempt log would show any other
 * retry. Raw sockets for the faults whose point is what happens on the wire.
 */
final class Http {

  static final ObjectMapper JSON = new ObjectMapper();

  private final HttpClient client = HttpClient.newBuilder()
      .version(HttpClient.Version.HTTP_1_1)
      .followRedirects(HttpClient.Redirect.NEVER)
      .connectTimeout(Duration.ofSeconds(5))
      .build();

  private final URI base;

  Http(URI base) {
    this.base = base;
  }

  HttpResponse<String> get(String path, String... headers) {
    return send("GET", path, null, headers);
  }

  HttpResponse<String> post(String path, String json, String... headers) {
    return send("POST", path, json, headers);
  }

  HttpResponse<String> send(String method, String path, String body, String... headers) {
    try {
      return sendOrThrow(method, path, body, headers);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Like {@link #send} but lets the IOException of a dropped or reset connection through. */
  HttpResponse<String> sendOrThrow(String method, String path, String body, String... headers) throws IOException {
    HttpRequest.Builder b = HttpRequest.newBuilder(base.resolve(path)).timeout(Duration.ofSeconds(10));
    for (int i = 0; i < headers.length; i += 2) {
      b.header(headers[i], headers[i + 1]);
    }
    if (body != null) {
      b.header("Content-Type", "application/json");
    }
    b.method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
    try {
      return client.send(b.build(), HttpResponse.BodyHandlers.ofString());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted", e);
    }
  }

  static JsonNode json(HttpResponse<String> r) {
    try {
      return JSON.readTree(r.body());
    } catch (IOException e) {
      throw new AssertionError("not JSON: " + r.body(), e);
    }
  }

  /** Sends a raw HTTP/1.1 request and returns every byte the server sent until it closed. */
  static byte[] raw(URI base, String request) throws IOException {
    try (Socket s = new Socket(base.getHost(), base.getPort())) {
      s.setSoTimeout(10_000);
      OutputStream out = s.getOutputStream();
      out.write(request.getBytes(StandardCharsets.US_ASCII));
      out.flush();
      InputStream in = s.getInputStream();
      ByteArrayOutputStream got = new ByteArrayOutputStream();
      byte[] buf = new byte[4096];
      int n;
      while ((n = in.read(buf)) >= 0) {
        got.write(buf, 0, n);
      }
      return got.toByteArray();
    }
  }

  static String rawPost(String path, String json, String... extraHeaderLines) {
    StringBuilder b = new StringBuilder("POST " + path + " HTTP/1.1\r\nHost: fake\r\nContent-Type: application/json\r\n");
    for (String h : extraHeaderLines) {
      b.append(h).append("\r\n");
    }
    byte[] body = json.getBytes(StandardCharsets.UTF_8);
    return b.append("Content-Length: ").append(body.length).append("\r\nConnection: close\r\n\r\n").append(json).toString();
  }
}
