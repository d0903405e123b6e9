package dev.sluice.fake.internal;

import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * The Jetty core handler of the fake: {@code /__fake/**} to the inspection API when it is enabled,
 * everything else through the provider pipeline ({@link Exchange}). Blocking by design (sleeps,
 * holds, blocking writes): Jetty runs it on virtual threads.
 */
public final class FakeHandler extends Handler.Abstract {

  private final ProviderCore core;
  private final InspectionApi inspection;

  public FakeHandler(ProviderCore core) {
    super(InvocationType.BLOCKING);
    this.core = core;
    this.inspection = core.config.inspect() ? new InspectionApi(core) : null;
  }

  @Override
  public boolean handle(Request request, Response response, Callback callback) {
    String path = Request.getPathInContext(request);
    if (inspection != null && (path.equals("/__fake") || path.startsWith("/__fake/"))) {
      inspection.handle(request, response, callback, path);
      return true;
    }
    new Exchange(core, request, response, callback, path).run();
    return true;
  }
}
