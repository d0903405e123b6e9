package dev.sluice.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.core.Sluice;
import dev.sluice.core.policy.PolicyLoader;
import io.modelcontextprotocol.json.schema.jackson2.DefaultJsonSchemaValidator;
import io.modelcontextprotocol.server.McpServerFeatures;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** An exception inside a tool handler is an isError result in the tool's shape, never a JSON-RPC error. */
class HandlerFailuresAreResultsTest {
  @Test
  void aFailingEngineCallBecomesAnInternalErrorResultThatSaysWhatToCheck() {
    Sluice sluice = Sluice.builder().policy(PolicyLoader.parse("providers:\n  api:\n    base_url: http://127.0.0.1:9\n", "t.yaml"))
        .secrets(n -> Optional.empty()).build();
    sluice.close(); // start() now throws IllegalStateException
    McpAgent agent = new McpAgent("bot", java.util.List.of("api"));
    McpServerFeatures.SyncToolSpecification spec = new SluiceMcpTools(sluice, McpSettings.defaults(), ex -> Optional.of(agent)).specifications()
        .stream().filter(s -> s.tool().name().equals("http_request")).findFirst().orElseThrow();

    McpSchema.CallToolResult r = spec.callHandler().apply(null, new McpSchema.CallToolRequest("http_request",
        Map.of("provider", "api", "method", "POST", "path", "/v1/transfers", "task", "t-1"), null));

    assertThat(r.isError()).isTrue();
    Map<String, Object> s = (Map<String, Object>) r.structuredContent();
    assertThat((String) s.get("reason")).startsWith("internal_error").contains("IllegalStateException").contains("check the provider");
    assertThat(new DefaultJsonSchemaValidator(new ObjectMapper()).validate(spec.tool().outputSchema(), s).valid()).isTrue();
  }

  @Test
  void aCallWithoutAnAgentIsRefused() {
    Sluice sluice = Sluice.builder().policy(PolicyLoader.parse("providers:\n  api:\n    base_url: http://127.0.0.1:9\n", "t.yaml"))
        .secrets(n -> Optional.empty()).build();
    try (sluice) {
      for (McpServerFeatures.SyncToolSpecification spec : new SluiceMcpTools(sluice, McpSettings.defaults(), ex -> Optional.empty()).specifications()) {
        McpSchema.CallToolResult r = spec.callHandler().apply(null, new McpSchema.CallToolRequest(spec.tool().name(), Map.of(), null));
        assertThat(r.isError()).as(spec.tool().name()).isTrue();
        assertThat(new DefaultJsonSchemaValidator(new ObjectMapper()).validate(spec.tool().outputSchema(), r.structuredContent()).valid())
            .as(spec.tool().name()).isTrue();
      }
    }
  }
}
