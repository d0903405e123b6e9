package dev.sluice.bench.quota;

/** What the logical actions are: reads, or writes carrying a stable idempotency key each. */
enum Kind {
  READS,
  WRITES;

  String label() {
    return this == READS ? "reads" : "writes";
  }
}
