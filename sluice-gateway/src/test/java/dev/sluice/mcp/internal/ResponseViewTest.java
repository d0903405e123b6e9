package dev.sluice.mcp.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.core.classify.AttemptResult;
import dev.sluice.core.http.Headers;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** What the model sees of a response body and headers: parsed or text, cut with a flag, never a credential. */
class ResponseViewTest {
  private static AttemptResult.Response response(String contentType, String body, String... headers) {
    Headers.Builder h = Headers.builder();
    if (contentType != null) {
      h.add("Content-Type", contentType);
    }
    for (int i = 0; i < headers.length; i += 2) {
      h.add(headers[i], headers[i + 1]);
    }
    return new AttemptResult.Response(200, h.build(), body.getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void wholeJsonIsParsed() {
    Map<String, Object> v = ResponseView.of(response("application/json; charset=utf-8", "{\"id\":\"inv_1\",\"n\":[1,2]}"), 1024, Optional.empty());
    assertThat(v).containsEntry("body_format", "json").containsEntry("truncated", false).containsEntry("body_bytes", 24).containsEntry("body_cap_bytes", 1024);
    assertThat((Map<String, Object>) v.get("body")).containsEntry("id", "inv_1");
  }

  @Test
  void aBodyOverTheCapIsCutAndFlaggedAndShownAsText() {
    String body = "{\"items\":\"" + "x".repeat(100) + "\"}";
    Map<String, Object> v = ResponseView.of(response("application/json", body), 20, Optional.empty());
    assertThat(v).containsEntry("body_format", "text").containsEntry("truncated", true).containsEntry("body_cap_bytes", 20)
        .containsEntry("body_bytes", body.length()).containsEntry("body", body.substring(0, 20));
  }

  @Test
  void aContentLengthLongerThanWhatWasKeptIsFlaggedToo() {
    Map<String, Object> v = ResponseView.of(response("text/plain", "abc", "Content-Length", "9000"), 1024, Optional.empty());
    assertThat(v).containsEntry("truncated", true).containsEntry("body", "abc");
  }

  @Test
  void jsonThatDoesNotParseIsText() {
    Map<String, Object> v = ResponseView.of(response("application/problem+json", "{not json"), 1024, Optional.empty());
    assertThat(v).containsEntry("body_format", "text").containsEntry("body", "{not json").containsEntry("truncated", false);
  }

  @Test
  void binaryIsNotShownAndEmptyIsEmpty() {
    assertThat(ResponseView.of(response("image/png", "\u0089PNG"), 1024, Optional.empty())).containsEntry("body_format", "binary").containsEntry("body", null);
    assertThat(ResponseView.of(response("application/json", ""), 1024, Optional.empty())).containsEntry("body_format", "empty").containsEntry("body", null);
  }

  @Test
  void onlyTheHeadersThatMatterAreShownAndNeverTheCredentialHeader() {
    Map<String, Object> v = ResponseView.of(response("application/json", "{}", "Retry-After", "10", "RateLimit", "limit=100, remaining=0, reset=10",
        "x-ratelimit-remaining-requests", "0", "Set-Cookie", "session=secret", "X-Api-Key", "echoed-secret", "Server", "nginx"), 1024,
        Optional.of("X-Api-Key"));
    assertThat((Map<String, Object>) v.get("headers")).containsOnlyKeys("content-type", "retry-after", "ratelimit", "x-ratelimit-remaining-requests");
  }
}
