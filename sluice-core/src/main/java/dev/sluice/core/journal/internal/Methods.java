package dev.sluice.core.journal.internal;

import java.util.Set;

/** The one rule for "is this a write", the same as {@code ActionRequest.write()} in the engine. */
public final class Methods {
  private static final Set<String> SAFE = Set.of("GET", "HEAD", "OPTIONS", "TRACE");

  private Methods() {}

  /** Whether the method may change state at the provider: anything but GET, HEAD, OPTIONS, TRACE. */
  public static boolean isWrite(String method) {
    return !SAFE.contains(method);
  }
}
