/**
 * {@code bench/run engine}: the engine's permission decisions per second beside Resilience4j's
 * {@code AtomicRateLimiter} and a Bucket4j local bucket in one JMH run ({@link DecisionBenchmarks}),
 * and the cost of enqueueing and waking delayed requests with 100,000 waiting ({@link QueueCost}).
 */
package dev.sluice.bench.engine;
