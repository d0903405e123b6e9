package dev.sluice.bench.quota;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Optional;

/**
 * The peers' HTTP: the JDK {@link HttpClient}, HTTP/1.1, no redirects, one client per run shared by
 * its K worker threads (blocking {@code send}), connections kept alive. The harness sets {@code
 * jdk.httpclient.disableRetryConnect=true} so the client does not retry a failed connect on its
 * own: every attempt is the strategy's.
 */
final class Http {
  private final HttpClient client;
  private final URI base;

  /**
   * One attempt's answer as the peer sees it.
   *
   * @param status the HTTP status, or -1 when the exchange failed (connection error, timeout)
   * @param retryAfter the {@code Retry-After} delay, when sent and readable
   */
  record Reply(int status, Optional<Duration> retryAfter) {
    boolean ok() {
      return status >= 200 && status < 300;
    }

    /**
     * What the SDKs and a typical retry decorator retry: connection errors, 408, 409 (lock
     * conflict, as the SDKs do), 429 and 5xx. Other 4xx are final.
     */
    boolean retryable() {
      return status == -1 || status == 408 || status == 409 || status == 429 || status >= 500;
    }
  }

  Http(URI base) {
    this.base = base;
    this.client = newClient();
  }

  /** The client every strategy's workers share: HTTP/1.1, no redirects, 5 s to connect. */
  static HttpClient newClient() {
    return HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).followRedirects(HttpClient.Redirect.NEVER)
        .connectTimeout(Duration.ofSeconds(5)).build();
  }

  /** The request of one action to {@code uri}: its method, JSON body and idempotency key. */
  static HttpRequest.Builder request(URI uri, Action a, Duration timeout) {
    HttpRequest.Builder b = HttpRequest.newBuilder(uri).timeout(timeout);
    if (a.method().equals("GET")) {
      b.GET();
    } else {
      b.method(a.method(), HttpRequest.BodyPublishers.ofByteArray(a.body())).header("Content-Type", "application/json");
    }
    a.idempotencyKey().ifPresent(k -> b.header("Idempotency-Key", k));
    return b;
  }

  /** One attempt. Never throws for a failed exchange: that is status -1. */
  Reply send(Action a) throws InterruptedException {
    HttpRequest.Builder b = request(base.resolve(a.target()), a, Duration.ofSeconds(30));
    try {
      HttpResponse<Void> r = client.send(b.build(), HttpResponse.BodyHandlers.discarding());
      Optional<Duration> ra = RetryAfter.parse(r.headers().firstValue("retry-after").orElse(null), System.currentTimeMillis());
      return new Reply(r.statusCode(), ra);
    } catch (IOException e) {
      return new Reply(-1, Optional.empty());
    }
  }

  void close() {
    client.close();
  }
}
