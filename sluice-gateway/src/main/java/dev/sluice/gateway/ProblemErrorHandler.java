package dev.sluice.gateway;

import dev.sluice.gateway.internal.Http;
import dev.sluice.gateway.internal.Problem;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.handler.ErrorHandler;
import org.eclipse.jetty.util.Callback;

/**
 * Jetty's own refusals (a head over the cap, a malformed request line) as problem documents, so an
 * agent sees one error format. Says nothing of the request beyond the status.
 */
final class ProblemErrorHandler extends ErrorHandler {
  @Override
  public boolean handle(Request request, Response response, Callback callback) {
    int status = response.getStatus() >= 400 ? response.getStatus() : 500;
    String code = status == 431 ? "headers_too_large" : status == 413 ? "body_too_large" : "bad_request";
    response.getHeaders().clear();
    Http.writeProblem(response, Problem.refused(status, code, status == 431 ? "Request head too large" : "Request refused",
        "the HTTP server refused the request (status " + status + ") before Sluice read it", "fix the request; nothing was sent"), callback);
    return true;
  }
}
