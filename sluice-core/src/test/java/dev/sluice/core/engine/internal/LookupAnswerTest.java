package dev.sluice.core.engine.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.core.classify.AttemptResult;
import dev.sluice.core.http.Headers;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A search look-up ({@code ?idempotency_key=...}) counts as found only on a non-empty list;
 * regression (review of the durable-actions merge): an empty body, {@code null} or an object of
 * another shape used to count as found, reporting a write as done when nothing proved it.
 */
class LookupAnswerTest {

  @ParameterizedTest(name = "search={1} body={0} -> {2}")
  @CsvSource(delimiter = '|', nullValues = "NONE", value = {
    "[{\"id\":\"tr_1\"}]                 | true  | FOUND",
    "{\"data\":[{\"id\":\"tr_1\"}]}      | true  | FOUND",
    "[]                                  | true  | ABSENT",
    "{\"items\":[]}                      | true  | ABSENT",
    "''                                  | true  | UNREADABLE",
    "null                                | true  | UNREADABLE",
    "{\"records\":[]}                    | true  | UNREADABLE",
    "<html>ok</html>                     | true  | UNREADABLE",
    "{\"id\":\"op_1\",\"status\":\"done\"} | false | FOUND",
    "''                                  | false | FOUND",
    "[]                                  | false | ABSENT",
  })
  void readsWhatTheLookUpProves(String body, boolean search, LookupAnswer expected) {
    assertThat(LookupAnswer.read(new AttemptResult.Response(200, Headers.empty(), body), search)).isEqualTo(expected);
  }

  @org.junit.jupiter.api.Test
  void theOperationIdComesFromTheConfiguredHeaderOrJsonPointerAndNothingElse() {
    var response = new AttemptResult.Response(201, Headers.of("Operation-Id", "op_7"), "{\"id\":\"tr_1\",\"operation\":{\"id\":\"op_9\"}}");
    assertThat(LookupAnswer.operationId(dev.sluice.core.policy.OperationIdSource.header("operation-id"), response)).contains("op_7");
    assertThat(LookupAnswer.operationId(dev.sluice.core.policy.OperationIdSource.jsonPointer("/operation/id"), response)).contains("op_9");
    assertThat(LookupAnswer.operationId(dev.sluice.core.policy.OperationIdSource.jsonPointer("/missing"), response)).isEmpty();
    assertThat(LookupAnswer.operationId(dev.sluice.core.policy.OperationIdSource.jsonPointer("/operation"), response)).as("an object is no id").isEmpty();
    var garbage = new AttemptResult.Response(201, Headers.of("Operation-Id", " "), "not json");
    assertThat(LookupAnswer.operationId(dev.sluice.core.policy.OperationIdSource.header("Operation-Id"), garbage)).isEmpty();
    assertThat(LookupAnswer.operationId(dev.sluice.core.policy.OperationIdSource.jsonPointer("/id"), garbage)).isEmpty();
  }
}
