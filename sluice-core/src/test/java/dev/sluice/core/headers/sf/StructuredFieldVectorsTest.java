package dev.sluice.core.headers.sf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Runs every vector of the vendored httpwg structured-field-tests suite (see the README in
 * {@code src/test/resources/structured-field-tests}). Each vector becomes one dynamic test named
 * after its file and name.
 */
class StructuredFieldVectorsTest {
  private static final ObjectMapper JSON =
      new ObjectMapper().enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS);

  @TestFactory
  Stream<DynamicNode> parsingVectors() throws Exception {
    return files("structured-field-tests").stream().map(file -> container(file, this::parsingTest));
  }

  @TestFactory
  Stream<DynamicNode> serialisationVectors() throws Exception {
    return files("structured-field-tests/serialisation-tests").stream().map(file -> container(file, this::serialisationTest));
  }

  /** Guards against the factories silently running nothing (e.g. resources not copied). */
  @Test
  void everyVendoredFileIsFoundAndHoldsVectors() throws Exception {
    assertThat(files("structured-field-tests")).hasSize(20);
    assertThat(files("structured-field-tests/serialisation-tests")).hasSize(4);
    int vectors = 0;
    for (Path f : files("structured-field-tests")) {
      vectors += JSON.readTree(f.toFile()).size();
    }
    assertThat(vectors).isGreaterThan(1500);
  }

  private void parsingTest(JsonNode v) throws Exception {
    String raw = String.join(", ", strings(v.get("raw")));
    String type = v.get("header_type").asText();
    boolean mustFail = v.path("must_fail").asBoolean(false);
    boolean canFail = v.path("can_fail").asBoolean(false);

    if (mustFail) {
      assertThatThrownBy(() -> parse(type, raw)).isInstanceOf(StructuredFieldException.class);
      return;
    }
    Object parsed;
    try {
      parsed = parse(type, raw);
    } catch (StructuredFieldException e) {
      if (canFail) {
        return;
      }
      throw new AssertionError("expected to parse but failed: " + e.getMessage(), e);
    }
    Object expected = VectorJson.topLevel(type, v.get("expected"));
    assertThat(parsed).isEqualTo(expected);
    List<String> canonical = v.has("canonical") ? strings(v.get("canonical")) : strings(v.get("raw"));
    assertThat(serialize(parsed)).isEqualTo(String.join(", ", canonical));
    // The expected structure itself serialises to the canonical form too.
    assertThat(serialize(expected)).isEqualTo(String.join(", ", canonical));
  }

  private void serialisationTest(JsonNode v) {
    String type = v.get("header_type").asText();
    if (v.path("must_fail").asBoolean(false)) {
      // Our value types refuse unserialisable values on construction.
      assertThatThrownBy(() -> serialize(VectorJson.topLevel(type, v.get("expected"))))
          .isInstanceOf(IllegalArgumentException.class);
      return;
    }
    Object value = VectorJson.topLevel(type, v.get("expected"));
    assertThat(serialize(value)).isEqualTo(String.join(", ", strings(v.get("canonical"))));
  }

  static Object parse(String type, String raw) throws StructuredFieldException {
    return switch (type) {
      case "item" -> StructuredFields.parseItem(raw);
      case "list" -> StructuredFields.parseList(raw);
      case "dictionary" -> StructuredFields.parseDictionary(raw);
      default -> throw new IllegalStateException("unknown header_type " + type);
    };
  }

  static String serialize(Object value) {
    return switch (value) {
      case Item i -> StructuredFields.serialize(i);
      case SfList l -> StructuredFields.serialize(l);
      case SfDictionary d -> StructuredFields.serialize(d);
      default -> throw new IllegalStateException("not a top-level value: " + value);
    };
  }

  private interface VectorCheck {
    void run(JsonNode vector) throws Exception;
  }

  private static DynamicContainer container(Path file, VectorCheck check) {
    JsonNode vectors;
    try {
      vectors = JSON.readTree(file.toFile());
    } catch (IOException e) {
      throw new IllegalStateException("cannot read " + file, e);
    }
    List<DynamicTest> tests = new ArrayList<>();
    vectors.forEach(v -> tests.add(DynamicTest.dynamicTest(v.get("name").asText(), () -> {
      try {
        check.run(v);
      } catch (AssertionError e) {
        fail(file.getFileName() + " / " + v.get("name").asText() + ": " + e.getMessage(), e);
      }
    })));
    return DynamicContainer.dynamicContainer(file.getFileName().toString(), tests);
  }

  private static List<Path> files(String folder) throws IOException, URISyntaxException {
    Path dir = Path.of(StructuredFieldVectorsTest.class.getClassLoader().getResource(folder).toURI());
    try (Stream<Path> s = Files.list(dir)) {
      return s.filter(p -> p.toString().endsWith(".json")).sorted().toList();
    }
  }

  private static List<String> strings(JsonNode array) {
    List<String> out = new ArrayList<>();
    array.forEach(n -> out.add(n.asText()));
    return out;
  }
}
