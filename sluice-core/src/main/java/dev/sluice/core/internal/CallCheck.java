package dev.sluice.core.internal;

import dev.sluice.core.Call;
import dev.sluice.core.policy.PathSafety;
import dev.sluice.core.policy.Route;
import dev.sluice.core.policy.internal.Syntax;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** What makes a call unfit to queue, checked before anything else; never throws on agent input. */
public final class CallCheck {
  /** The longest idempotency key accepted (Stripe's limit). */
  public static final int MAX_KEY_LENGTH = 255;

  private CallCheck() {}

  /** Why the call is refused, as {@code code: sentence}, or empty when it may be queued. */
  public static Optional<String> problem(Call call, int maxRequestBytes) {
    if (!Route.isMethod(call.method())) {
      return Optional.of("bad_method: the method must be an upper-case HTTP method token such as GET or POST");
    }
    Optional<PathSafety.Refusal> unsafe = PathSafety.check(call.target());
    if (unsafe.isPresent()) {
      return Optional.of("unsafe_path (" + unsafe.get().code() + "): " + unsafe.get().message());
    }
    for (Map.Entry<String, List<String>> h : call.headers().asMap().entrySet()) {
      if (!Syntax.isToken(h.getKey())) {
        return Optional.of("bad_header: a header field name must be a token; one is not");
      }
      for (String v : h.getValue()) {
        if (hasForbiddenControl(v)) {
          // The value is not echoed: it may be a token.
          return Optional.of("bad_header: the value of header " + h.getKey() + " contains a line break or control character");
        }
      }
    }
    if (call.idempotencyKey().isPresent()) {
      String k = call.idempotencyKey().get();
      if (k.isBlank() || k.length() > MAX_KEY_LENGTH || Syntax.hasControl(k)) {
        return Optional.of("bad_idempotency_key: an idempotency key must be 1-" + MAX_KEY_LENGTH + " characters without control characters");
      }
    }
    if (call.bodyLength() > maxRequestBytes) {
      return Optional.of("body_too_large: the body is " + call.bodyLength() + " bytes; at most " + maxRequestBytes + " are accepted");
    }
    if (call.taskId().isBlank() || call.taskId().length() > 200 || Syntax.hasControl(call.taskId())) {
      return Optional.of("bad_task: a task id must be 1-200 characters without control characters");
    }
    return Optional.empty();
  }

  /** Horizontal tab is allowed in field values (RFC 9110 §5.5); other controls are not. */
  private static boolean hasForbiddenControl(String v) {
    for (int i = 0; i < v.length(); i++) {
      char c = v.charAt(i);
      if ((c < 0x20 && c != '\t') || c == 0x7f) {
        return true;
      }
    }
    return false;
  }
}
