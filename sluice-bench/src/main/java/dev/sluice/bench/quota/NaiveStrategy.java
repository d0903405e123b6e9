package dev.sluice.bench.quota;

/**
 * The naive loop many agents start with: on a retryable answer (429 included), send again at once,
 * up to 10 attempts in all. {@code Retry-After} and the rate-limit headers are ignored.
 */
final class NaiveStrategy implements Strategy {
  static final int MAX_ATTEMPTS = 10;

  @Override
  public String name() {
    return "naive";
  }

  @Override
  public Client open(Setup setup) {
    Http http = new Http(setup.base());
    return new Client() {
      @Override
      public boolean perform(Action a) throws InterruptedException {
        Http.Reply r = http.send(a);
        for (int attempt = 1; attempt < MAX_ATTEMPTS && r.retryable(); attempt++) {
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
