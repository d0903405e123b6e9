package dev.sluice.core.journal;

import java.nio.file.Path;
import java.util.Objects;

/**
 * Another Sluice process holds the data directory (its lock file is locked). One process runs on
 * a data_dir at a time; a shared stdio MCP server that finds it held relays to that process
 * instead (docs/MCP.md).
 */
public class DataDirInUseException extends JournalException {
  private static final long serialVersionUID = 1L;
  private final transient Path dataDir;

  public DataDirInUseException(Path dataDir, String message, Throwable cause) {
    super(message, cause);
    this.dataDir = Objects.requireNonNull(dataDir, "dataDir");
  }

  /** The directory that is in use. */
  public Path dataDir() {
    return dataDir;
  }
}
