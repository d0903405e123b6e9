package dev.sluice.cli;

import picocli.CommandLine;

/** Reads the version from the jar manifest (falls back to "development"). */
final class VersionProvider implements CommandLine.IVersionProvider {
  @Override
  public String[] getVersion() {
    String v = SluiceCli.class.getPackage().getImplementationVersion();
    return new String[] {"sluice " + (v == null ? "development build" : v) + " (Java " + Runtime.version() + ")"};
  }
}
