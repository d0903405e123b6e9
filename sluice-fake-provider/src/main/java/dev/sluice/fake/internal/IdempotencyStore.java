package dev.sluice.fake.internal;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.locks.ReentrantLock;

/**
 * {@code Idempotency-Key} bookkeeping with the semantics of Stripe and
 * draft-ietf-httpapi-idempotency-key-header. Keys live per scope (one account's key never collides
 * with another's). A key is first <em>claimed</em> for a request; when the request succeeds (2xx)
 * its reply is stored and replayed for every later request with the same key and the same payload;
 * when it does not, the claim is dropped so that the key can be used again.
 */
public final class IdempotencyStore {

  private final ReentrantLock lock = new ReentrantLock();
  private final Map<String, Slot> slots = new HashMap<>();

  private static final class Slot {
    final Fingerprint fingerprint;
    Reply reply;

    Slot(Fingerprint f) {
      this.fingerprint = f;
    }
  }

  /**
   * What a request is, for the "same payload" test: method, path and body, where two JSON bodies
   * are the same when their trees are equal (member order does not matter) and other bodies must
   * match byte for byte.
   */
  public record Fingerprint(String method, String path, Optional<JsonNode> json, byte[] raw) {
    public static Fingerprint of(String method, String path, byte[] body) {
      return new Fingerprint(method, path, Json.parse(body), body.clone());
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Fingerprint f
          && method.equals(f.method)
          && path.equals(f.path)
          && (json.isPresent() && f.json.isPresent() ? json.get().equals(f.json.get()) : Arrays.equals(raw, f.raw));
    }

    @Override
    public int hashCode() {
      return Objects.hash(method, path);
    }
  }

  /** The outcome of a claim. */
  public sealed interface Claim {
    /** First use of the key: the caller processes the request, then {@link #complete} or {@link #abandon}. */
    record Fresh() implements Claim {}

    /** The key was used with another payload: answer 422. */
    record Mismatch() implements Claim {}

    /** The first request with this key is still being processed: answer 409. */
    record InFlight() implements Claim {}

    /** The stored reply of the first request. */
    record Replay(Reply reply) implements Claim {}
  }

  public Claim claim(String scope, String key, Fingerprint fingerprint) {
    lock.lock();
    try {
      String k = scope + '\n' + key;
      Slot s = slots.get(k);
      if (s == null) {
        slots.put(k, new Slot(fingerprint));
        return new Claim.Fresh();
      }
      if (!s.fingerprint.equals(fingerprint)) {
        return new Claim.Mismatch();
      }
      return s.reply == null ? new Claim.InFlight() : new Claim.Replay(s.reply);
    } finally {
      lock.unlock();
    }
  }

  /** Stores the reply of a claimed key's first request. */
  public void complete(String scope, String key, Reply reply) {
    lock.lock();
    try {
      Slot s = slots.get(scope + '\n' + key);
      if (s != null) {
        s.reply = reply;
      }
    } finally {
      lock.unlock();
    }
  }

  /** Forgets a claim whose request did not succeed. */
  public void abandon(String scope, String key) {
    lock.lock();
    try {
      Slot s = slots.get(scope + '\n' + key);
      if (s != null && s.reply == null) {
        slots.remove(scope + '\n' + key);
      }
    } finally {
      lock.unlock();
    }
  }

  public void clear() {
    lock.lock();
    try {
      slots.clear();
    } finally {
      lock.unlock();
    }
  }
}
