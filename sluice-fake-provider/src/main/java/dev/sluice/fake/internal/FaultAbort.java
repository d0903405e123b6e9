package dev.sluice.fake.internal;

import java.io.IOException;
import org.eclipse.jetty.io.QuietException;

/**
 * Fails a response on purpose (reset, drop, truncation). Jetty logs {@link QuietException}s at
 * debug level only, so a scripted fault does not look like a server error in the operator's logs.
 */
final class FaultAbort extends IOException implements QuietException {

  private static final long serialVersionUID = 1L;

  FaultAbort(String fault) {
    super("fake provider fault: " + fault);
  }
}
