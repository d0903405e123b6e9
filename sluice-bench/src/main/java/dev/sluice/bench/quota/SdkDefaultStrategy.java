package dev.sluice.bench.quota;

import java.util.concurrent.ThreadLocalRandom;

/**
 * The OpenAI and Anthropic SDKs at their defaults: 2 retries (3 attempts), delay from {@link
 * SdkDefaultBackoff} (the server's {@code retry-after} when given, else {@code min(0.5·2^n, 8)·(1 −
 * 0.25·rand)} s). No client-side rate limit: the SDKs have none. The worker thread sleeps for the
 * delay, as the synchronous SDK clients do.
 */
final class SdkDefaultStrategy implements Strategy {
  @Override
  public String name() {
    return "sdk-default";
  }

  @Override
  public Client open(Setup setup) {
    Http http = new Http(setup.base());
    return new Client() {
      @Override
      public boolean perform(Action a) throws InterruptedException {
        Http.Reply r = http.send(a);
        for (int retries = 0; retries < SdkDefaultBackoff.MAX_RETRIES && r.retryable(); retries++) {
          Thread.sleep(SdkDefaultBackoff.delay(retries, r.retryAfter(), ThreadLocalRandom.current().nextDouble()));
          r = http.send(a);
        }
        return r.ok();
      }

      @Override
      public void close() {
        http.close();
      }
    };
  }
}
