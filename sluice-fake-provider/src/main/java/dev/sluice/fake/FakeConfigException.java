package dev.sluice.fake;

/**
 * A fake-provider configuration (file, or a fault posted to the control API) that cannot be used.
 * The message is one line naming the source, the key inside it and what was expected, e.g. {@code
 * fake.yaml: quota.burst: expected an integer of at least 1, got 'ten'}. It never contains a
 * credential.
 */
public final class FakeConfigException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  private final String source;
  private final String key;

  public FakeConfigException(String source, String key, String problem) {
    super(source + ": " + (key.isEmpty() ? "" : key + ": ") + problem);
    this.source = source;
    this.key = key;
  }

  /** The file (or {@code request body}) the problem is in. */
  public String source() {
    return source;
  }

  /** The key path inside it ({@code faults[1].kind}), empty for the whole document. */
  public String key() {
    return key;
  }
}
