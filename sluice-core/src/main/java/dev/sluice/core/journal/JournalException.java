package dev.sluice.core.journal;

/**
 * The journal could not be read or written: the database is unreachable, locked for longer than
 * the busy timeout, corrupt, or from a newer Sluice. The message names the database and what
 * failed; it never contains payloads, headers or keys.
 */
public class JournalException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public JournalException(String message) {
    super(message);
  }

  public JournalException(String message, Throwable cause) {
    super(message, cause);
  }
}
