package dev.sluice.core.policy.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** docs/CONFIGURATION.md matches the code: every key the loader knows is documented, and the example is current. */
class ConfigurationDocTest {
  static final Path DOC = Path.of("..", "docs", "CONFIGURATION.md");
  static final Path EXAMPLE = Path.of("..", "examples", "sluice.yaml");

  @Test
  void everyKeyTheLoaderAcceptsIsDocumented() throws Exception {
    String doc = Files.readString(DOC);
    List<String> keys = Stream.of(PolicyReader.TOP_KEYS, PolicyReader.CLASS_KEYS, PolicyReader.SHARED_SCOPE_KEYS,
            PolicyReader.RETRY_AFTER_KEYS, PolicyReader.BACKOFF_KEYS, PolicyReader.PROVIDER_KEYS, PolicyReader.CREDENTIAL_KEYS,
            PolicyReader.RATE_KEYS, PolicyReader.QUOTA_KEYS, PolicyReader.ROUTE_KEYS, PolicyReader.LOOKUP_KEYS,
            PolicyReader.OPERATION_ID_KEYS, PolicyReader.AGENT_KEYS, PolicyReader.OPERATOR_KEYS,
            PolicyReader.GATEWAY_KEYS, AuditBlockReader.AUDIT_KEYS, AuditBlockReader.ROTATE_KEYS, AuditBlockReader.RETENTION_KEYS,
            OperatorReader.OPERATOR_ITEM_KEYS, EscalationReader.KEYS, EscalationReader.WEBHOOK_KEYS)
        .flatMap(List::stream).distinct().toList();

    assertThat(keys).allSatisfy(k -> assertThat(doc).as("key %s", k).contains("| `" + k + "` |"));
  }

  @Test
  void theDocumentedExampleIsTheShippedExample() throws Exception {
    String doc = Files.readString(DOC);
    String example = Files.readString(EXAMPLE);
    int start = doc.lastIndexOf("```yaml\n") + "```yaml\n".length();
    int end = doc.indexOf("```", start);

    assertThat(doc.substring(start, end)).isEqualTo(example);
  }
}
