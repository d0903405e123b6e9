package dev.sluice.core.audit;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Reading from a position (what {@code sluice audit tail -f} does): only what was appended since, across segments, never a torn line. */
class AuditReaderTest {
  static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

  @TempDir Path dir;

  @Test
  void aFollowerReadsOnlyNewRecordsAcrossSegmentsAndWaitsForATornLineToComplete() throws Exception {
    AuditReader reader = new AuditReader(dir, List.of());
    List<Long> seen = new ArrayList<>();
    try (AuditLog log = AuditLog.open(AuditSettings.in(dir).withSegmentBytes(1024), () -> T0)) {
      for (int i = 0; i < 3; i++) {
        log.append("action_sent", T0, Map.of("task", "t", "attempt", i, "idempotency", "k".repeat(100)));
      }
      AuditReader.Position p = reader.read(AuditReader.Position.START, e -> seen.add(e.seq()));
      assertThat(seen).containsExactly(1L, 2L, 3L);

      for (int i = 0; i < 10; i++) {
        log.append("action_sent", T0, Map.of("task", "t", "attempt", i, "idempotency", "k".repeat(100)));
      }
      assertThat(AuditVerifier.segments(dir)).hasSizeGreaterThan(1);
      p = reader.read(p, e -> seen.add(e.seq()));
      assertThat(seen).containsExactly(1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L, 10L, 11L, 12L, 13L);

      AuditReader.Position unchanged = reader.read(p, e -> seen.add(e.seq()));
      assertThat(unchanged).isEqualTo(p);
      assertThat(seen).hasSize(13);
    }
    // A line still being written (no newline yet) is not handed out.
    Path last = AuditVerifier.segments(dir).getLast();
    AuditReader.Position before = reader.read(AuditReader.Position.START, e -> { });
    Files.writeString(last, "{\"at\":\"2026-01-01T00:00:00Z\",\"event\":\"x\"", StandardCharsets.UTF_8, StandardOpenOption.APPEND);
    List<Long> more = new ArrayList<>();
    assertThat(reader.read(before, e -> more.add(e.seq()))).isEqualTo(before);
    assertThat(more).isEmpty();
  }

  @Test
  void lastReturnsTheNewestRecordsInOrder() throws Exception {
    try (AuditLog log = AuditLog.open(AuditSettings.in(dir), () -> T0)) {
      for (int i = 0; i < 7; i++) {
        log.append("action_sent", T0, Map.of("attempt", i));
      }
    }
    assertThat(new AuditReader(dir, List.of()).last(3)).extracting(AuditEntry::seq).containsExactly(5L, 6L, 7L);
  }
}
