package dev.sluice.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.modelcontextprotocol.client.McpAsyncClient;
import java.time.Duration;
import reactor.core.publisher.Mono;
import io.modelcontextprotocol.json.schema.JsonSchemaValidator;
import io.modelcontextprotocol.json.schema.jackson2.DefaultJsonSchemaValidator;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A test's MCP client with checks: every tool result it returns has been validated against the
 * output schema the server published for that tool (from {@code tools/list}, as a client sees it).
 * Asynchronous underneath, so that calls meant to run concurrently can be in flight together
 * ({@link #callAsync}).
 */
public final class McpChecks {
  private static final Duration PATIENCE = Duration.ofSeconds(90);
  private final McpAsyncClient client;
  private final Map<String, Map<String, Object>> outputSchemas = new HashMap<>();
  private final JsonSchemaValidator validator = new DefaultJsonSchemaValidator(new ObjectMapper());
  /** Every result this client received, for checks over all of them (no secret in any, ...). */
  public final List<McpSchema.CallToolResult> received = new CopyOnWriteArrayList<>();

  /** An initialized SDK client of the gateway's {@code /mcp} (streamable HTTP) with this bearer token. */
  public static McpAsyncClient httpClient(java.net.URI gateway, String token) {
    McpAsyncClient c = io.modelcontextprotocol.client.McpClient.async(
            io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport.builder(gateway.toString()).endpoint("/mcp")
                .requestBuilder(java.net.http.HttpRequest.newBuilder().header("Authorization", "Bearer " + token))
                .jsonMapper(new io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper(new ObjectMapper())).build())
        .requestTimeout(Duration.ofSeconds(60)).build();
    c.initialize().block(Duration.ofSeconds(30));
    return c;
  }

  public McpChecks(McpAsyncClient client) {
    this.client = client;
    for (McpSchema.Tool t : client.listTools().block(PATIENCE).tools()) {
      outputSchemas.put(t.name(), t.outputSchema());
    }
  }

  public Map<String, Map<String, Object>> outputSchemas() {
    return outputSchemas;
  }

  /** Calls a tool and checks its structured content against the tool's output schema. */
  public McpSchema.CallToolResult call(String tool, Map<String, Object> args) {
    return callAsync(tool, args).block(PATIENCE);
  }

  /** The call, checked when its result arrives. */
  public Mono<McpSchema.CallToolResult> callAsync(String tool, Map<String, Object> args) {
    return client.callTool(new McpSchema.CallToolRequest(tool, args, null)).map(r -> check(tool, r));
  }

  private McpSchema.CallToolResult check(String tool, McpSchema.CallToolResult r) {
    received.add(r);
    assertThat(r.structuredContent()).as("%s returns structured content", tool).isNotNull();
    JsonSchemaValidator.ValidationResponse v = validator.validate(outputSchemas.get(tool), r.structuredContent());
    assertThat(v.valid()).as("%s output conforms to its schema: %s\n%s", tool, v.errorMessage(), r.structuredContent()).isTrue();
    assertThat(r.content()).as("%s has a text for the model", tool).isNotEmpty();
    return r;
  }

  @SuppressWarnings("unchecked")
  public static Map<String, Object> structured(McpSchema.CallToolResult r) {
    return (Map<String, Object>) r.structuredContent();
  }

  @SuppressWarnings("unchecked")
  public static Map<String, Object> map(Object o) {
    return (Map<String, Object>) o;
  }

  public static String text(McpSchema.CallToolResult r) {
    return ((McpSchema.TextContent) r.content().get(0)).text();
  }
}
