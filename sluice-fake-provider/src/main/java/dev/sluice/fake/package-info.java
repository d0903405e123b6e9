/**
 * The Sluice fake provider: a controllable, rate-limited HTTP API that counts every attempt it
 * receives. Start one with {@link dev.sluice.fake.FakeProvider#builder()} (or register a {@link
 * dev.sluice.fake.FakeProviderExtension} in a JUnit 5 test), point the code under test at {@link
 * dev.sluice.fake.FakeProvider#baseUri()}, and count what actually arrived with {@link
 * dev.sluice.fake.FakeProvider#attempts()}.
 *
 * <p>This module is a test oracle: its main code shares nothing with the Sluice engine. Its quota
 * arithmetic and rate-limit header writers are written independently, so that a bug in the engine
 * cannot be cancelled out by the same bug here.
 */
package dev.sluice.fake;
