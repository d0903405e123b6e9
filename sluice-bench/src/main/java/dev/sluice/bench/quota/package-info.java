/**
 * The quota-efficiency benchmark ({@code bench/run quota}): K workers sharing one rate-limited
 * account at the fake provider complete N logical actions through each strategy in turn (a naive
 * retry loop, the OpenAI/Anthropic SDK defaults, Resilience4j, Failsafe, Sluice), and what each
 * cost is counted in the fake provider's own attempt log, never in the client's counters.
 */
package dev.sluice.bench.quota;
