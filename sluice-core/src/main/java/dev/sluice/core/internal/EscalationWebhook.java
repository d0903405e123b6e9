package dev.sluice.core.internal;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.core.engine.Scheduler;
import dev.sluice.core.escalation.Escalation;
import dev.sluice.core.escalation.EscalationJson;
import dev.sluice.core.policy.EscalationSettings;
import dev.sluice.core.policy.SecretRef;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.security.GeneralSecurityException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The optional escalation webhook ({@code escalation.webhook}): each new escalation's JSON
 * ({@link EscalationJson#of}, wrapped as {@code {"event": "escalated", "escalation": …}})
 * is POSTed to the configured URL, with a budget of its own — at most {@code max_attempts}, a
 * connection failure, 429 or 5xx retried after 1 s, 2 s, 4 s… (on the engine's scheduler), any
 * other answer final. The secret (read once at start, from env or file like every credential)
 * signs the body ({@code Sluice-Signature: sha256=<hex HMAC-SHA256>}) or is sent as a bearer token;
 * it never appears in a log or an error. Delivery is best effort: the escalation is already durable
 * in the journal whatever the webhook does.
 */
public final class EscalationWebhook implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(EscalationWebhook.class);
  private static final ObjectMapper JSON = new ObjectMapper();

  private final EscalationSettings.Webhook settings;
  private final Optional<String> secret;
  private final Scheduler scheduler;
  private final HttpClient client;
  private volatile boolean closed;

  private EscalationWebhook(EscalationSettings.Webhook settings, Optional<String> secret, Scheduler scheduler) {
    this.settings = settings;
    this.secret = secret;
    this.scheduler = scheduler;
    this.client = HttpClient.newBuilder().connectTimeout(settings.timeout()).followRedirects(HttpClient.Redirect.NEVER).build();
  }

  /**
   * Reads the secret and prepares the client.
   *
   * @throws IllegalStateException when the secret is configured but cannot be read or is empty (the message never quotes it)
   */
  public static EscalationWebhook start(EscalationSettings.Webhook settings, Function<String, Optional<String>> env, Scheduler scheduler) {
    Optional<String> secret = settings.secret().map(ref -> read(ref, env));
    return new EscalationWebhook(settings, secret, scheduler);
  }

  private static String read(SecretRef ref, Function<String, Optional<String>> env) {
    String value = switch (ref) {
      case SecretRef.Env e -> env.apply(e.variable()).orElseThrow(() -> new IllegalStateException(
          "escalation.webhook: its secret_env " + e.variable() + " is not set"));
      case SecretRef.File f -> {
        try {
          yield Files.readString(f.path(), StandardCharsets.UTF_8);
        } catch (IOException | RuntimeException x) {
          throw new IllegalStateException("escalation.webhook: its secret_file " + f.path() + " cannot be read (" + x.getClass().getSimpleName() + ")");
        }
      }
    };
    String v = Secrets.stripTrailingLineBreaks(value);
    if (v.isEmpty()) {
      throw new IllegalStateException("escalation.webhook: its secret (" + ref.describe() + ") is empty");
    }
    return v;
  }

  /** Queues the delivery of one escalation; returns at once. The future completes with the final HTTP status, or -1. */
  public CompletableFuture<Integer> notify(Escalation e) {
    Map<String, Object> doc = new LinkedHashMap<>();
    doc.put("event", "escalated");
    doc.put("escalation", EscalationJson.of(e));
    byte[] body;
    try {
      body = JSON.writeValueAsBytes(doc);
    } catch (IOException x) {
      LOG.error("escalation {} could not be written as JSON for the webhook: {}", e.id(), x.toString());
      return CompletableFuture.completedFuture(-1);
    }
    CompletableFuture<Integer> done = new CompletableFuture<>();
    attempt(e.id().toString(), body, 1, done);
    return done;
  }

  /** The value of {@code Sluice-Signature} for a body: {@code sha256=} and the hex HMAC-SHA256 with the secret as key. */
  public static String signature(String secret, byte[] body) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
      return "sha256=" + HexFormat.of().formatHex(mac.doFinal(body));
    } catch (GeneralSecurityException x) {
      throw new IllegalStateException("HMAC-SHA256 is not available: " + x.getClass().getSimpleName());
    }
  }

  private void attempt(String id, byte[] body, int n, CompletableFuture<Integer> done) {
    if (closed) {
      done.complete(-1);
      return;
    }
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(settings.url().toString())).timeout(settings.timeout())
        .header("Content-Type", "application/json").header("Sluice-Escalation-Id", id).header("Sluice-Delivery-Attempt", String.valueOf(n))
        .POST(HttpRequest.BodyPublishers.ofByteArray(body));
    if (secret.isPresent()) {
      if (settings.signature() == EscalationSettings.Signature.HMAC) {
        b.header("Sluice-Signature", signature(secret.get(), body));
      } else {
        b.header("Authorization", "Bearer " + secret.get());
      }
    }
    client.sendAsync(b.build(), HttpResponse.BodyHandlers.discarding()).whenComplete((r, x) -> {
      int status = r != null ? r.statusCode() : -1;
      boolean retry = r == null || status == 429 || status >= 500;
      if (!retry) {
        if (status >= 300) {
          LOG.warn("escalation webhook answered {} for {}; not retried", status, id);
        }
        done.complete(status);
        return;
      }
      if (n >= settings.maxAttempts()) {
        LOG.warn("escalation webhook gave up on {} after {} attempt(s) (last: {})", id, n, r != null ? "HTTP " + status
            : x.getClass().getSimpleName());
        done.complete(status);
        return;
      }
      Duration delay = Duration.ofSeconds(1L << Math.min(n - 1, 5));
      scheduler.schedule(scheduler.now().plus(delay), () -> attempt(id, body, n + 1, done));
    });
  }

  @Override
  public void close() {
    closed = true;
    client.close();
  }
}
