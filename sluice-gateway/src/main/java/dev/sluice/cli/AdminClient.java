package dev.sluice.cli;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Optional;
import java.util.function.Function;
import picocli.CommandLine.Option;

/** The options and HTTP calls shared by the CLI commands that talk to a running gateway's admin API. */
final class AdminClient {
  @Option(names = "--url", paramLabel = "URL", defaultValue = "http://127.0.0.1:7070", description = "The gateway. Default: ${DEFAULT-VALUE}.")
  String url;

  @Option(names = "--token-env", paramLabel = "NAME", defaultValue = "SLUICE_OPERATOR_TOKEN",
      description = "The environment variable holding the operator token. Default: ${DEFAULT-VALUE}.")
  String tokenEnv;

  Function<String, Optional<String>> env = name -> Optional.ofNullable(System.getenv(name));

  HttpResponse<String> send(String method, String path) {
    return send(method, path, null);
  }

  /** Sends {@code jsonBody} (when not null) as {@code application/json}. */
  HttpResponse<String> send(String method, String path, String jsonBody) {
    String token = env.apply(tokenEnv).filter(t -> !t.isBlank())
        .orElseThrow(() -> new CliErrors.UserError("the operator token is not set; export " + tokenEnv + " (see operator.token_env in sluice.yaml)"));
    URI uri;
    try {
      uri = URI.create(url.replaceAll("/+$", "") + path);
    } catch (IllegalArgumentException e) {
      throw new CliErrors.UserError("--url: not a URL: " + e.getMessage());
    }
    HttpRequest.Builder rb = HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(10)).header("Authorization", "Bearer " + token);
    if (jsonBody != null) {
      rb.header("Content-Type", "application/json");
    }
    HttpRequest req = rb.method(method, jsonBody == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(jsonBody)).build();
    try (HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build()) {
      HttpResponse<String> r = client.send(req, HttpResponse.BodyHandlers.ofString());
      if (r.statusCode() == 401) {
        throw new CliErrors.UserError("the gateway refused the operator token (401); check " + tokenEnv);
      }
      return r;
    } catch (IOException e) {
      throw new CliErrors.UserError("cannot reach the gateway at " + url + " (" + e.getClass().getSimpleName() + "); is 'sluice serve' running?");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new CliErrors.UserError("interrupted");
    }
  }
}
