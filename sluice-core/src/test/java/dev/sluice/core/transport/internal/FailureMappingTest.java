package dev.sluice.core.transport.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.core.classify.TransportFailure;
import dev.sluice.core.transport.internal.FailureMapping.Stage;
import java.io.EOFException;
import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;

/** Only an exchange that never reached a connection sent nothing; after that the outcome is unknown. */
class FailureMappingTest {

  @Test
  void withoutAConnectionNothingWasSent() {
    assertThat(FailureMapping.kind(Stage.CONNECTING, new ConnectException("Connection refused"))).isEqualTo(TransportFailure.CONNECT_FAILED);
    assertThat(FailureMapping.kind(Stage.CONNECTING, new SocketTimeoutException("Connect Timeout"))).isEqualTo(TransportFailure.CONNECT_TIMEOUT);
    assertThat(FailureMapping.kind(Stage.CONNECTING, new EOFException()).afterSend()).isFalse();
  }

  @Test
  void aRequestThatBeganOnAConnectionMayHaveLeftEvenIfTheCommitWasNeverReported() {
    assertThat(FailureMapping.kind(Stage.WRITING, new EOFException())).isEqualTo(TransportFailure.RESET_AFTER_SEND);
    assertThat(FailureMapping.kind(Stage.WRITING, new TimeoutException("Idle timeout"))).isEqualTo(TransportFailure.READ_TIMEOUT);
  }

  @Test
  void afterTheCommitTheOutcomeIsUnknown() {
    assertThat(FailureMapping.kind(Stage.COMMITTED, new EOFException())).isEqualTo(TransportFailure.RESET_AFTER_SEND);
    assertThat(FailureMapping.kind(Stage.COMMITTED, new ExecutionException(new TimeoutException("Idle timeout 300 ms"))))
        .as("a wrapped timeout is still a timeout").isEqualTo(TransportFailure.READ_TIMEOUT);
    assertThat(FailureMapping.kind(Stage.RESPONDING, new EOFException())).isEqualTo(TransportFailure.TRUNCATED_RESPONSE);
    assertThat(FailureMapping.kind(Stage.RESPONDING, new TimeoutException())).isEqualTo(TransportFailure.TRUNCATED_RESPONSE);
    for (Stage s : new Stage[] {Stage.COMMITTED, Stage.RESPONDING}) {
      assertThat(FailureMapping.kind(s, null).afterSend()).isTrue();
    }
  }
}
